import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useId,
  useRef,
  useState,
} from 'react';
import {
  type FieldErrors,
  type FieldValues,
  type UseFormReturn,
  useController,
  useFormContext,
  useWatch,
} from 'react-hook-form';
import type { z } from 'zod';
import { useT } from '../../../i18n/react.tsx';
import type { MessageKey } from '../../../i18n/translate.ts';
import { type FormId, forms } from '../forms.ts';
import {
  FILE_MAX_BYTES,
  type FileRule,
  MESSAGE_MAX,
  NUMERIC_CODE_MAX,
  TEXTAREA_ROWS,
  type UploadedFile,
} from '../schemas.ts';
import { postForm, pushEvent } from './api.ts';
import { Captcha, type CaptchaHandle, type CaptchaState } from './captcha.tsx';
import { ErrorText, errorAt, Label, Star, useField } from './field-base.tsx';
import {
  ErrorSummary,
  FormFrame,
  type Status,
  SubmitRow,
  SuccessText,
  TextField,
  useSchemaForm,
} from './form-parts.tsx';
import styles from './forms.module.css';
import { ProductSelect } from './product-select.tsx';

export { DateField } from './date-field.tsx';
export {
  Checkbox,
  ErrorSummary,
  FormFrame,
  type Status,
  SubmitRow,
  SuccessText,
  TextField,
  useSchemaForm,
} from './form-parts.tsx';
export { styles };

/** A text area with a maximum length and 'remaining/max merkkiä jäljellä' under it. */
export function TextArea(props: {
  name: string;
  label: string;
  required?: boolean;
  max?: number;
  remainingKey?: MessageKey;
}) {
  const t = useT();
  const { register, control } = useFormContext();
  const value = (useWatch({ control, name: props.name }) as string | undefined) ?? '';
  const { id, error } = useField(props.name, props.label);
  const max = props.max ?? MESSAGE_MAX;
  const required = props.required ?? true;
  return (
    <div className={styles.field}>
      <Label htmlFor={id} text={props.label} required={required} />
      <textarea
        id={id}
        className={styles.input}
        rows={TEXTAREA_ROWS}
        maxLength={max}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-count${error ? ` ${id}-error` : ''}`}
        {...register(props.name)}
      />
      <p id={`${id}-count`} className={styles.hint}>
        {t(props.remainingKey ?? 'form.remaining', { remaining: max - value.length, max })}
      </p>
      <ErrorText id={`${id}-error`} error={error} />
    </div>
  );
}

/** Radio buttons for one value. */
export function RadioGroup(props: {
  name: string;
  legend: string;
  options: { value: string; label: string }[];
  required?: boolean;
}) {
  const { register } = useFormContext();
  const { id, error } = useField(props.name, props.legend);
  const required = props.required ?? true;
  return (
    <fieldset
      className={styles.fieldset}
      id={id}
      tabIndex={-1}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend className={styles.legend}>
        {props.legend}
        <Star required={required} />
      </legend>
      {props.options.map((option) => (
        <label key={option.value} className={styles.option}>
          <input
            type="radio"
            value={option.value}
            required={required || undefined}
            {...register(props.name)}
          />
          {option.label}
        </label>
      ))}
      <ErrorText id={`${id}-error`} error={error} />
    </fieldset>
  );
}

const contactFields = ['ContactByEmail', 'ContactByPhone', 'NoContact'] as const;

/** Email, phone or none: choosing one clears the others (three booleans in the payload). */
export function ContactMethod(props: { prefix: string }) {
  const t = useT();
  const { setValue, control, clearErrors } = useFormContext();
  const values = useWatch({
    control,
    name: contactFields.map((f) => `${props.prefix}.${f}`),
  }) as boolean[];
  const name = `${props.prefix}.ContactMethod`;
  const { id, error } = useField(name, t('form.field.contactMethod'));
  const labels = {
    ContactByEmail: t('form.contactMethod.email'),
    ContactByPhone: t('form.contactMethod.phone'),
    NoContact: t('form.contactMethod.none'),
  };
  const choose = (chosen: (typeof contactFields)[number]) => {
    for (const field of contactFields) {
      setValue(`${props.prefix}.${field}`, field === chosen, { shouldDirty: true });
    }
    clearErrors(name);
  };
  return (
    <fieldset
      className={styles.fieldset}
      id={id}
      tabIndex={-1}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend className={styles.legend}>
        {t('form.contactMethod.legend')}
        <Star required />
      </legend>
      {contactFields.map((field, index) => (
        <label key={field} className={styles.option}>
          <input
            type="radio"
            name={`${id}-choice`}
            required
            checked={values[index] === true}
            onChange={() => choose(field)}
          />
          {labels[field]}
        </label>
      ))}
      <ErrorText id={`${id}-error`} error={error} />
    </fieldset>
  );
}

/**
 * The file reads of a form still under way: a submit waits for them, so a file chosen just before
 * the visitor sends is sent with the form, never left out.
 */
const PendingReads = createContext<Set<Promise<unknown>> | null>(null);

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

function acceptsFile(rule: FileRule, file: File): boolean {
  return rule.accept.some((a) =>
    a.endsWith('/*') ? file.type.startsWith(a.slice(0, -1)) : a === file.type,
  );
}

/** Files as data URLs under the form's rule: count, size and type (the server checks the bytes). */
export function FileField(props: {
  name: string;
  label: string;
  rule: FileRule;
  typesLabel: string;
  noFileKey?: MessageKey;
}) {
  const t = useT();
  const { field } = useController({ name: props.name });
  const files = (field.value as UploadedFile[] | null | undefined) ?? [];
  const [alert, setAlert] = useState<MessageKey>();
  const { id, error: serverError } = useField(props.name, props.label);
  const { formState } = useFormContext();
  const reads = useContext(PendingReads);
  const itemErrors = files
    .map((_, index) => errorAt(formState.errors, `${props.name}.${index}`))
    .find((e) => e);
  const error =
    alert ??
    serverError ??
    (itemErrors?.message as MessageKey | undefined) ??
    (itemErrors?.Data?.message as MessageKey | undefined);

  const add = async (list: FileList | null) => {
    setAlert(undefined);
    const chosen = Array.from(list ?? []);
    if (files.length + chosen.length > props.rule.max) return setAlert('form.file.tooMany');
    const next = [...files];
    for (const file of chosen) {
      if (file.size > FILE_MAX_BYTES) return setAlert('form.file.tooLarge');
      if (!acceptsFile(props.rule, file)) return setAlert('form.file.wrongType');
      try {
        next.push({ Name: file.name, Data: await readDataUrl(file) });
      } catch {
        return setAlert('form.file.unreadable');
      }
    }
    field.onChange(next);
  };

  return (
    <div className={styles.field}>
      <Label htmlFor={id} text={props.label} required={false} />
      <p id={`${id}-rule`} className={styles.hint}>
        {t('form.file.allowed', { types: props.typesLabel, count: props.rule.max })}
      </p>
      <input
        id={id}
        ref={field.ref}
        type="file"
        accept={props.rule.accept.join(',')}
        multiple={props.rule.max > 1}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-rule ${id}-list${error ? ` ${id}-error` : ''}`}
        onChange={(event) => {
          const reading = add(event.target.files);
          reads?.add(reading);
          void reading.finally(() => reads?.delete(reading));
          event.target.value = '';
        }}
      />
      <div id={`${id}-list`}>
        {files.length === 0 ? (
          <p className={styles.hint}>{t(props.noFileKey ?? 'form.file.none')}</p>
        ) : (
          <ul className={styles.files}>
            {files.map((file, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: two chosen files may share a name; the list only grows or shrinks
              <li key={`${index}-${file.Name}`}>
                <span>{file.Name}</span>
                <button
                  type="button"
                  className={styles.secondary}
                  onClick={() => field.onChange(files.filter((_, i) => i !== index))}
                >
                  {t('form.file.remove', { name: file.Name })}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      {error ? (
        <p id={`${id}-error`} className={styles.error} role="alert">
          {t(error)}
        </p>
      ) : null}
    </div>
  );
}

/** True when the captcha's field is the only one with an error: the fields themselves are valid. */
export function onlyCaptchaMissing(errors: FieldErrors, captchaField: string): boolean {
  const names = Object.keys(errors);
  return names.length === 1 && names[0] === captchaField;
}

/**
 * Sends a form: 'sending', and on success the analytics event and the success page
 * (server-configured) or the success state. Field errors from the server are shown at their
 * fields. Nothing is sent without a captcha token (spec §4); when the fields are valid and only
 * the captcha is unfinished, `captchaNotice` says so (still running, or to be done), and once the
 * captcha is done it says that the form can now be sent.
 */
export function useFormSender<T extends FieldValues>(
  formId: FormId,
  methods: UseFormReturn<T>,
  options: { successPage?: string | undefined; onSuccess?: () => void } = {},
) {
  const definition = forms[formId];
  const [status, setStatus] = useState<Status>('idle');
  const [errorKey, setErrorKey] = useState<MessageKey>();
  const [captchaNotice, setCaptchaNotice] = useState<MessageKey>();
  const captcha = useRef<CaptchaHandle>(null);
  const captchaState = useRef<CaptchaState>('loading');
  const { setValue, setError, clearErrors } = methods;
  const field = definition.captchaField;

  const onCaptchaState = useCallback(
    (state: CaptchaState, token: string) => {
      captchaState.current = state;
      setValue(field as never, token as never, { shouldValidate: false });
      if (token) clearErrors(field as never);
      // A notice already shown follows the captcha; none appears before a submit asks.
      setCaptchaNotice((notice) => {
        if (!notice) return notice;
        if (state === 'verified') return 'form.captcha.ready';
        return state === 'loading' || state === 'verifying'
          ? 'form.captcha.pending'
          : 'form.captcha.missing';
      });
    },
    [setValue, clearErrors, field],
  );

  /** After a submit the fields allowed: tell what the captcha still needs. */
  const captchaUnfinished = () => {
    const state = captchaState.current;
    setCaptchaNotice(
      state === 'loading' || state === 'verifying'
        ? 'form.captcha.pending'
        : 'form.captcha.missing',
    );
  };

  const send = async (values: T) => {
    setStatus('sending');
    setErrorKey(undefined);
    setCaptchaNotice(undefined);
    const answer = await postForm(definition.path, values);
    if (answer.isSuccess) {
      pushEvent({ ...definition.event });
      const page = answer.redirect ?? options.successPage;
      if (page) {
        window.location.assign(page);
        return;
      }
      setStatus('success');
      options.onSuccess?.();
      return;
    }
    captcha.current?.renew();
    for (const [name, key] of Object.entries(answer.errors ?? {})) {
      if (name !== field) setError(name as never, { type: 'server', message: key });
    }
    setErrorKey(answer.status === 503 ? 'form.error.busy' : undefined);
    setStatus('error');
  };

  const hasToken = () => Boolean(methods.getValues(field as never));
  const captchaElement = (
    <Captcha ref={captcha} onStateChange={onCaptchaState} notice={captchaNotice} />
  );
  return {
    methods,
    status,
    errorKey,
    send,
    hasToken,
    captchaField: field,
    captchaUnfinished,
    clearCaptchaNotice: () => setCaptchaNotice(undefined),
    captchaElement,
  };
}

/**
 * A form the spec sends as `{ Data, Files, MTCaptchaToken }` with files: its react-hook-form
 * methods, `data` being the first values of its fields (no files, no captcha token yet), and its
 * sender.
 */
export function useFilesForm(
  formId: FormId,
  schema: z.ZodType,
  data: FieldValues,
  options: { successPage?: string | undefined } = {},
) {
  const methods = useSchemaForm(schema, { Data: data, Files: [], MTCaptchaToken: '' });
  const sender = useFormSender(formId, methods, options);
  return { methods, sender };
}

export type FormSender = ReturnType<typeof useFormSender>;

/**
 * One form as every form is: its heading, a note that explains the star of required fields, its
 * own fields (the children), the error summary under the form's summary heading, the captcha,
 * the submit button with the failure text, and the success text in its place once sent. A submit
 * always checks the fields; without a captcha token nothing is sent, and when only the captcha is
 * unfinished its status message says so.
 */
export function FormShell(props: {
  sender: FormSender;
  title: string;
  /** The retail contact page has the page heading; its forms take the next level. */
  headingLevel?: 'h2' | 'h3';
  /** The language of the heading and the required-field note, when not the page's. */
  headingLang?: string;
  /** The note explaining the star; by default 'Tähdellä (*) merkityt kentät ovat pakollisia.' */
  requiredNote?: string;
  /** Beside the heading, e.g. the expert form's close button. */
  headerAction?: ReactNode;
  /** The error summary's heading; by default 'Lomakkeelta puuttuu pakollisia tietoja'. */
  summaryHeading?: string;
  summaryLabel?: string;
  /** The text under the button when sending fails; by default 'Tapahtui virhe. Yritä uudelleen'. */
  failureText?: string;
  submitText?: string;
  sendingText?: string;
  /** What replaces the form once sent; by default 'Kiitos viestistäsi!'. */
  successText?: string;
  /** What a valid submit does; by default it sends. */
  onValid?: (values: FieldValues) => unknown;
  children: ReactNode;
}) {
  const t = useT();
  const headingId = `${useId().replace(/[^\w-]/g, '')}-heading`;
  const reads = useRef(new Set<Promise<unknown>>()).current;
  const { sender } = props;
  const { methods } = sender;
  if (sender.status === 'success') {
    return <SuccessText text={props.successText ?? t('form.success')} />;
  }
  const Heading = props.headingLevel ?? 'h2';
  const heading = (
    <Heading id={headingId} className={styles.heading} lang={props.headingLang}>
      {props.title}
    </Heading>
  );
  return (
    <FormFrame
      methods={methods}
      labelledBy={headingId}
      onSubmit={async (event) => {
        event.preventDefault();
        await Promise.all(reads);
        void methods.handleSubmit(
          (values) => {
            if (!sender.hasToken()) return sender.captchaUnfinished();
            return (props.onValid ?? sender.send)(values);
          },
          (errors) => {
            if (onlyCaptchaMissing(errors, sender.captchaField)) sender.captchaUnfinished();
            else sender.clearCaptchaNotice();
          },
        )(event);
      }}
    >
      {props.headerAction ? (
        <div className={styles.actions}>
          {heading}
          {props.headerAction}
        </div>
      ) : (
        heading
      )}
      <p className={styles.hint} lang={props.headingLang}>
        {props.requiredNote ?? t('form.requiredMark')}
      </p>
      <PendingReads.Provider value={reads}>{props.children}</PendingReads.Provider>
      <ErrorSummary
        heading={props.summaryHeading ?? t('form.summary.default')}
        label={props.summaryLabel}
      />
      {sender.captchaElement}
      <SubmitRow
        status={sender.status}
        errorText={
          sender.errorKey ? t(sender.errorKey) : (props.failureText ?? t('form.error.general'))
        }
        submitText={props.submitText}
        sendingText={props.sendingText}
      />
    </FormFrame>
  );
}

/** A customer number: optional, and when given a numeric code of 7 to 12 digits. */
export function CustomerNumberField(props: { name: string }) {
  const t = useT();
  return (
    <TextField
      name={props.name}
      label={t('form.field.customerId')}
      required={false}
      inputMode="numeric"
      maxLength={NUMERIC_CODE_MAX}
    />
  );
}

/** The privacy policy link, opening in a new tab. */
export function PrivacyLink(props: { href: string | undefined }) {
  const t = useT();
  return (
    <p>
      <a href={props.href ?? '/tietosuoja'} target="_blank" rel="noopener">
        {t('form.privacy')} <span className={styles.visuallyHidden}>{t('form.newTab')}</span>
      </a>
    </p>
  );
}

/** The product select bound to a pair of fields (`ProductId`, `ProductName`) or to one object. */
export function ProductField(props: {
  label: string;
  required: boolean;
  idName: string;
  titleName: string;
}) {
  const { control, setValue, clearErrors } = useFormContext();
  const [productId, title] = useWatch({ control, name: [props.idName, props.titleName] }) as [
    number,
    string,
  ];
  const { field } = useController({ name: props.titleName });
  const { id, error } = useField(props.titleName, props.label);
  return (
    <ProductSelect
      id={id}
      label={props.label}
      required={props.required}
      value={{ productId: productId ?? 0, title: title ?? '' }}
      error={error}
      inputRef={field.ref}
      onChange={(item) => {
        setValue(props.idName, item.productId, { shouldDirty: true });
        setValue(props.titleName, item.title, { shouldDirty: true });
        if (item.title) clearErrors(props.titleName);
      }}
    />
  );
}
