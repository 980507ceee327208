/**
 * The light parts of the forms' kit: a text field, a checkbox, the error summary, the submit row,
 * the success text and the zod-backed form hook. Other features' forms use them through the
 * feature's `index.ts` (the marketing lists' widgets); `kit.tsx` re-exports them beside its
 * heavier parts (files, captcha, product select).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import {
  type FormEvent,
  type ReactNode,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import {
  type FieldValues,
  FormProvider,
  type Resolver,
  type UseFormReturn,
  useForm,
  useFormContext,
} from 'react-hook-form';
import type { z } from 'zod';
import { useT } from '../../../i18n/react.tsx';
import {
  ErrorText,
  errorAt,
  IdContext,
  Label,
  Star,
  SummaryContext,
  type SummaryRegistry,
  useField,
} from './field-base.tsx';
import styles from './forms.module.css';

/** A text input: required by default, a star on its label and its error under it. */
export function TextField(props: {
  name: string;
  label: string;
  required?: boolean;
  type?: 'text' | 'email' | 'tel';
  autoComplete?: string;
  readOnly?: boolean;
  maxLength?: number;
  inputMode?: 'numeric';
}) {
  const { register } = useFormContext();
  const { id, error } = useField(props.name, props.label);
  const required = props.required ?? true;
  return (
    <div className={styles.field}>
      <Label htmlFor={id} text={props.label} required={required} />
      <input
        id={id}
        className={styles.input}
        type={props.type ?? 'text'}
        autoComplete={props.autoComplete}
        readOnly={props.readOnly}
        maxLength={props.maxLength ?? 200}
        inputMode={props.inputMode}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...register(props.name)}
      />
      <ErrorText id={`${id}-error`} error={error} />
    </div>
  );
}

/** One checkbox, e.g. consent or rules. */
export function Checkbox(props: { name: string; label: string; required?: boolean }) {
  const { register } = useFormContext();
  const { id, error } = useField(props.name, props.label);
  return (
    <div className={styles.field}>
      <label className={styles.option} htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          aria-required={props.required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          {...register(props.name)}
        />
        <span>
          {props.label}
          <Star required={Boolean(props.required)} />
        </span>
      </label>
      <ErrorText id={`${id}-error`} error={error} />
    </div>
  );
}

/** Field names in the order their fields stand on the page (as registered, before hydration). */
function inPageOrder(names: string[], idOf: (name: string) => string): string[] {
  if (typeof document === 'undefined') return names;
  const position = (name: string) => document.getElementById(idOf(name));
  return [...names].sort((a, b) => {
    const x = position(a);
    const y = position(b);
    if (!x || !y) return 0;
    return x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
  });
}

/**
 * After a submit, the fields to fix under the form's own heading, each a link to its field: every
 * field of the form (they name themselves with `useSummaryEntry`) that has an error, in page order.
 */
export function ErrorSummary(props: { heading: string; label?: string }) {
  const t = useT();
  const { formState } = useFormContext();
  const prefix = useContext(IdContext);
  const registry = useContext(SummaryContext);
  if (formState.submitCount === 0 || !registry) return null;
  const idOf = (name: string) => `${prefix}${name.replace(/\W+/g, '-')}`;
  const entries = inPageOrder([...registry.keys()], idOf)
    .map((name) => ({
      name,
      label: registry.get(name) ?? name,
      error: errorAt(formState.errors, name)?.message as string | undefined,
    }))
    .filter((f) => f.error);
  if (entries.length === 0) return null;
  return (
    <div className={styles.summary} role="alert" aria-label={props.label}>
      <h3>{props.heading}</h3>
      <ul>
        {entries.map((entry) => (
          <li key={entry.name}>
            <a href={`#${idOf(entry.name)}`}>
              {entry.error?.startsWith('form.message.characters')
                ? t('form.message.removeCharacters')
                : entry.label}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export type Status = 'idle' | 'sending' | 'success' | 'error';

/** The submit button ('Lähetä' / 'Lähetetään...') and the failure text under it. */
export function SubmitRow(props: {
  status: Status;
  errorText: string;
  submitText?: string;
  sendingText?: string;
}) {
  const t = useT();
  const sending = props.status === 'sending';
  return (
    <div>
      <div className={styles.actions}>
        <button type="submit" className={styles.button} disabled={sending} aria-busy={sending}>
          {sending
            ? (props.sendingText ?? t('form.sending'))
            : (props.submitText ?? t('form.submit'))}
        </button>
      </div>
      {props.status === 'error' ? (
        <p className={styles.error} role="alert">
          {props.errorText}
        </p>
      ) : null}
    </div>
  );
}

/** Where focus goes when a form is replaced by its success text. */
export function SuccessText(props: { text: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div ref={ref} className={styles.success} role="status" tabIndex={-1}>
      {props.text}
    </div>
  );
}

/** react-hook-form over one of the forms' zod schemas: the same rules as the server's. */
export function useSchemaForm(schema: z.ZodType, defaultValues: FieldValues) {
  return useForm<FieldValues>({
    resolver: zodResolver(schema as never) as unknown as Resolver<FieldValues>,
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
}

/** The form element with its id scope, its error summary's fields and the react-hook-form context. */
export function FormFrame<T extends FieldValues>(props: {
  methods: UseFormReturn<T>;
  labelledBy?: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  const prefix = `${useId().replace(/[^\w-]/g, '')}-`;
  const [registry] = useState<SummaryRegistry>(() => new Map());
  return (
    <IdContext value={prefix}>
      <SummaryContext value={registry}>
        <FormProvider {...props.methods}>
          <form
            className={styles.form}
            noValidate
            aria-labelledby={props.labelledBy}
            onSubmit={props.onSubmit}
          >
            {props.children}
          </form>
        </FormProvider>
      </SummaryContext>
    </IdContext>
  );
}
