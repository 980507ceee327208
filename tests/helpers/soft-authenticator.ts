import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator for tests without a browser: an ES256 key pair, 'none'
 * attestation, the answers a browser would send for a registration and a sign-in (what the
 * WebAuthn spec says the authenticator and client put in them).
 */
export function softAuthenticator(origin: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  const credentialId = randomBytes(16);
  const rpId = new URL(origin).hostname;
  let counter = 0;
  const b64 = (b: Buffer | Uint8Array) => Buffer.from(b).toString('base64url');
  const rpIdHash = createHash('sha256').update(rpId).digest();
  const clientData = (type: string, challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  const count = () => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(counter);
    return b;
  };
  return {
    id: b64(credentialId),
    register(options: { challenge: string }) {
      const cose = new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x, 'base64url')],
        [-3, Buffer.from(jwk.y, 'base64url')],
      ]);
      const length = Buffer.alloc(2);
      length.writeUInt16BE(credentialId.length);
      const authData = Buffer.concat([
        rpIdHash,
        Buffer.from([0x45]),
        count(),
        Buffer.alloc(16),
        length,
        credentialId,
        Buffer.from(isoCBOR.encode(cose)),
      ]);
      const attestation = isoCBOR.encode(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]) as never,
      );
      return {
        id: b64(credentialId),
        rawId: b64(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64(clientData('webauthn.create', options.challenge)),
          attestationObject: b64(attestation),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      };
    },
    signIn(options: { challenge: string }) {
      counter += 1;
      const authData = Buffer.concat([rpIdHash, Buffer.from([0x05]), count()]);
      const data = clientData('webauthn.get', options.challenge);
      const signature = sign(
        'sha256',
        Buffer.concat([authData, createHash('sha256').update(data).digest()]),
        privateKey,
      );
      return {
        id: b64(credentialId),
        rawId: b64(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64(data),
          authenticatorData: b64(authData),
          signature: b64(signature),
        },
        clientExtensionResults: {},
      };
    },
  };
}
