import { fileTypeFromBuffer } from 'file-type';
import type { FieldErrors } from '../../server/errors.ts';
import { accepts, type FileRule, type UploadedFile } from './schemas.ts';

export interface DecodedFile {
  name: string;
  mime: string;
  ext: string;
  bytes: Buffer;
}

/**
 * Decodes the data URLs and checks each file's real type from its bytes: the name and the type
 * the browser claimed are not trusted (a PNG named .pdf, or a PDF posing as JPEG, is refused).
 * Count and size were checked by the schema. Each decoded string is dropped from `files` as soon
 * as it is read, so a large upload is not held twice.
 */
export async function decodeFiles(
  rule: FileRule | undefined,
  files: UploadedFile[] | null | undefined,
): Promise<{ files: DecodedFile[]; errors: FieldErrors }> {
  const decoded: DecodedFile[] = [];
  const errors: FieldErrors = {};
  if (!files?.length) return { files: decoded, errors };
  if (!rule) return { files: decoded, errors: { Files: 'form.file.tooMany' } };
  for (const [index, file] of files.entries()) {
    const comma = file.Data.indexOf(',');
    const bytes = Buffer.from(file.Data.slice(comma + 1), 'base64');
    file.Data = '';
    const type = await fileTypeFromBuffer(bytes);
    if (!type || !accepts(rule, type.mime)) {
      errors[`Files.${index}`] = 'form.file.wrongType';
      continue;
    }
    decoded.push({ name: file.Name, mime: type.mime, ext: type.ext, bytes });
  }
  return { files: decoded, errors };
}
