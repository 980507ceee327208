import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for submissions at rest. Text is sealed as `v1.<iv>.<tag>.<ciphertext>` (base64url);
 * bytes as `v1` + iv + tag + ciphertext. The version names the key generation, so a key can be
 * rotated later by adding `v2` and re-sealing.
 */
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BYTES_MAGIC = Buffer.from('KSv1');

export function sealText(key: Buffer, plain: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function openText(key: Buffer, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || iv === undefined || tag === undefined || body === undefined) {
    throw new Error('not a sealed text');
  }
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(body, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}

export function sealBytes(key: Buffer, plain: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([BYTES_MAGIC, iv, cipher.getAuthTag(), body]);
}

export function openBytes(key: Buffer, sealed: Buffer): Buffer {
  if (!sealed.subarray(0, BYTES_MAGIC.length).equals(BYTES_MAGIC)) throw new Error('not sealed');
  const ivStart = BYTES_MAGIC.length;
  const tagStart = ivStart + IV_BYTES;
  const bodyStart = tagStart + TAG_BYTES;
  const iv = sealed.subarray(ivStart, tagStart);
  const tag = sealed.subarray(tagStart, bodyStart);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed.subarray(bodyStart)), decipher.final()]);
}
