import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { serverT } from '../../i18n/catalogues.ts';
import type { MessageKey } from '../../i18n/translate.ts';
import { emailHash, looksLikeEmail } from '../../server/email-hash.ts';
import { AppError, type FieldErrors } from '../../server/errors.ts';
import { isShopSite } from '../../sites/shop.ts';
import type { Lang, Site } from '../../sites/types.ts';
import { sealBytes, sealText } from './crypto.server.ts';
import { type DecodedFile, decodeFiles } from './files.server.ts';
import { type FormId, forms } from './forms.ts';
import type { UploadedFile } from './schemas.ts';
import { formSettingsFor } from './settings.server.ts';
import { SHOP_PLACE_OF_PURCHASE } from './shop.ts';
import {
  formSubmissionFiles,
  formSubmissions,
  mailOutbox,
  schoolMaterials,
  usedCaptchaTokens,
} from './tables.ts';

/** A refused submission: 400 problem+json naming each field, with `isSuccess: false`. */
export class FormInvalid extends AppError {
  constructor(readonly errors: FieldErrors) {
    super(400, 'validation', 'Invalid request', 'The form has invalid fields.', {
      errors,
      isSuccess: false,
    });
  }
}

export { SHOP_PLACE_OF_PURCHASE };

export interface SubmitContext {
  site: Site;
  lang: Lang;
}

export interface SubmitResult {
  id: string;
  /** The configured success page of the form on this site, if any. */
  redirect: string | undefined;
}

type Payload = Record<string, unknown> & {
  Data?: Record<string, unknown>;
  Files?: UploadedFile[] | null;
};

/**
 * Takes one submission, parsed with the form's schema (the route declares it, and a refusal is a
 * `FormInvalid`): checks the captcha, decodes and checks files, writes the files (sealed) under
 * fresh keys, then in ONE transaction spends the captcha token and stores the submission, its file
 * rows and the notification mail. If anything fails, the files written so far are deleted and
 * nothing is committed.
 */
export async function submitForm(
  app: FastifyInstance,
  formId: FormId,
  parsed: unknown,
  context: SubmitContext,
): Promise<SubmitResult> {
  const definition = forms[formId];
  const payload = parsed as Payload;

  const captchaField = definition.captchaField;
  const captcha = await app.captcha.verify(String(payload[captchaField] ?? ''));
  if (!captcha.ok) {
    throw new FormInvalid({
      [captchaField]:
        captcha.reason === 'expired' ? 'form.captcha.expired' : 'form.captcha.invalid',
    });
  }
  const [spent] = await app.db
    .select({ id: usedCaptchaTokens.id })
    .from(usedCaptchaTokens)
    .where(eq(usedCaptchaTokens.id, captcha.id));
  if (spent) throw new FormInvalid({ [captchaField]: 'form.captcha.reused' });

  const { files, errors } = await decodeFiles(definition.files, payload.Files);
  if (Object.keys(errors).length) throw new FormInvalid(errors);
  if (payload.Files) payload.Files = payload.Files.map((f) => ({ Name: f.Name, Data: '' }));

  const data = await normalise(app, formId, payload, context);
  const config = app.config.forms;
  // Staff's settings of the form on this site, else the environment's (decision 170).
  const settings = await formSettingsFor(app, formId, context.site, context.lang);
  const id = randomUUID();
  const now = new Date();
  const deleteAfter = new Date(now.getTime() + retentionDays(app, formId, context.site.id) * 864e5);
  const t = serverT(context.lang);
  const title = t(`form.${formId}.title` as MessageKey);
  const address = submitterAddress(data);
  const hash = address ? emailHash(config.encryptionKey, address) : null;

  const written: string[] = [];
  try {
    const fileRows: (typeof formSubmissionFiles.$inferInsert)[] = [];
    for (const [position, file] of files.entries()) {
      const storageKey = `forms/${formId}/${id}/${position + 1}.${file.ext}`;
      await app.files.put(storageKey, sealBytes(config.encryptionKey, file.bytes));
      written.push(storageKey);
      fileRows.push({
        submissionId: id,
        position,
        name: file.name,
        mime: file.mime,
        size: file.bytes.length,
        storageKey,
      });
    }
    await app.db.transaction(async (tx) => {
      const marked = await tx
        .insert(usedCaptchaTokens)
        .values({ id: captcha.id, expiresAt: captcha.expiresAt })
        .onConflictDoNothing()
        .returning({ id: usedCaptchaTokens.id });
      if (marked.length === 0) throw new FormInvalid({ [captchaField]: 'form.captcha.reused' });
      await tx.insert(formSubmissions).values({
        id,
        form: formId,
        siteId: context.site.id,
        lang: context.lang,
        sealedData: sealText(config.encryptionKey, JSON.stringify(data)),
        createdAt: now,
        deleteAfter,
        emailHash: hash,
      });
      if (fileRows.length) await tx.insert(formSubmissionFiles).values(fileRows);
      await tx.insert(mailOutbox).values({
        submissionId: id,
        recipients: settings.recipients,
        subject: `${title} – ${context.site.name}`,
        sealedBody: sealText(config.encryptionKey, mailBody(title, id, context, data, files)),
        emailHash: hash,
      });
    });
  } catch (error) {
    await Promise.allSettled(written.map((key) => app.files.delete(key)));
    throw error;
  }
  return { id, redirect: settings.successPage };
}

/** The stored form of the data, with server-side rules applied on top of the schema. */
async function normalise(
  app: FastifyInstance,
  formId: FormId,
  payload: Payload,
  context: SubmitContext,
): Promise<Record<string, unknown>> {
  if (formId === 'sales') {
    const { captchaToken: _token, ...fields } = payload;
    return fields;
  }
  const data = { ...payload.Data };
  if (formId === 'complaint' && isShopSite(context.site)) {
    data.PlaceOfPurchase = SHOP_PLACE_OF_PURCHASE;
  }
  if (formId === 'school-material') {
    const chosen = (data.Materials as string[]) ?? [];
    const known = await app.db
      .select({ material: schoolMaterials.material, url: schoolMaterials.url })
      .from(schoolMaterials)
      .where(
        and(eq(schoolMaterials.siteId, context.site.id), eq(schoolMaterials.lang, context.lang)),
      );
    const byName = new Map(known.map((m) => [m.material, m.url]));
    const unknown = chosen.findIndex((m) => !byName.has(m));
    if (unknown !== -1)
      throw new FormInvalid({ [`Data.Materials.${unknown}`]: 'form.school.materials' });
    data.Links = chosen.map((m) => byName.get(m) ?? '');
  }
  return data;
}

/**
 * The submitter's address as the form stored it (`Email`, or `email` of the sales form), or null
 * for a form that asked for none.
 */
export function submitterAddress(data: Record<string, unknown>): string | null {
  const address = data.Email ?? data.email;
  return looksLikeEmail(address) ? address.trim() : null;
}

function lookup(map: Record<string, string>, formId: FormId, siteId: string): string | undefined {
  return map[`${formId}@${siteId}`] ?? map[formId];
}

export function retentionDays(app: FastifyInstance, formId: FormId, siteId: string): number {
  const configured = lookup(app.config.forms.retentionDays, formId, siteId);
  return configured ? Number(configured) : forms[formId].retentionDays;
}

function mailBody(
  title: string,
  id: string,
  context: SubmitContext,
  data: Record<string, unknown>,
  files: DecodedFile[],
): string {
  const lines = [`${title} (${context.site.name}, ${context.lang})`, `Id: ${id}`, ''];
  for (const [key, value] of Object.entries(data)) {
    const shown = value && typeof value === 'object' ? JSON.stringify(value) : String(value ?? '');
    lines.push(`${key}: ${shown}`);
  }
  if (files.length) {
    lines.push('', 'Files:');
    for (const file of files) lines.push(`- ${file.name} (${file.mime}, ${file.bytes.length} B)`);
  }
  return lines.join('\n');
}
