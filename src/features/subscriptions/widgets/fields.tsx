import { zodResolver } from '@hookform/resolvers/zod';
import {
  createContext,
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
  get,
  type Resolver,
  type UseFormReturn,
  useForm,
  useFormContext,
} from 'react-hook-form';
import type { z } from 'zod';
import { useT } from '../../../i18n/react.tsx';
import type { MessageKey } from '../../../i18n/translate.ts';
import styles from './subscriptions.module.css';

/**
 * The widgets' form kit: fields tied to their labels and errors, the error summary after a
 * submit (links to the fields), the submit row with the failure text — the site's failed-submit
 * pattern, as the forms feature has it: the first wrong field takes the focus, typed values stay.
 */

export type Status = 'idle' | 'sending' | 'success' | 'error';

const Prefix = createContext('subscribe-');
type Registry = Map<string, string>;
const Summary = createContext<Registry | null>(null);

export function useSubscribeForm(schema: z.ZodType, defaultValues: FieldValues) {
  return useForm<FieldValues>({
    resolver: zodResolver(schema as never) as unknown as Resolver<FieldValues>,
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
}

function useField(name: string, label: string) {
  const prefix = useContext(Prefix);
  const registry = useContext(Summary);
  const { formState } = useFormContext();
  const message = (get(formState.errors, name) as { message?: unknown } | undefined)?.message;
  useEffect(() => {
    registry?.set(name, label);
    return () => {
      registry?.delete(name);
    };
  }, [registry, name, label]);
  return {
    id: `${prefix}${name.replace(/\W+/g, '-')}`,
    error: typeof message === 'string' && message ? (message as MessageKey) : undefined,
  };
}

export function Frame(props: {
  methods: UseFormReturn<FieldValues>;
  labelledBy?: string;
  onValid: (values: FieldValues) => unknown;
  children: ReactNode;
}) {
  const prefix = `${useId().replace(/[^\w-]/g, '')}-`;
  const [registry] = useState<Registry>(() => new Map());
  return (
    <Prefix value={prefix}>
      <Summary value={registry}>
        <FormProvider {...props.methods}>
          <form
            className={styles.form}
            noValidate
            aria-labelledby={props.labelledBy}
            onSubmit={(event) => {
              event.preventDefault();
              void props.methods.handleSubmit(props.onValid)(event);
            }}
          >
            {props.children}
          </form>
        </FormProvider>
      </Summary>
    </Prefix>
  );
}

function Star(props: { required: boolean }) {
  return props.required ? (
    <span className={styles.star} aria-hidden="true">
      {' '}
      *
    </span>
  ) : null;
}

function ErrorText(props: { id: string; error: MessageKey | undefined }) {
  const t = useT();
  return props.error ? (
    <p id={props.id} className={styles.error}>
      {t(props.error)}
    </p>
  ) : null;
}

export function EmailField(props: { name?: string }) {
  const t = useT();
  const name = props.name ?? 'email';
  const label = t('subscribe.field.email');
  const { register } = useFormContext();
  const { id, error } = useField(name, label);
  return (
    <div className={styles.field}>
      <label htmlFor={id}>
        {label}
        <Star required />
      </label>
      <input
        id={id}
        className={styles.input}
        type="email"
        autoComplete="email"
        maxLength={254}
        aria-required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...register(name)}
      />
      <ErrorText id={`${id}-error`} error={error} />
    </div>
  );
}

export function CheckField(props: { name: string; label: string; required?: boolean }) {
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

/** Checkboxes of one array field under a legend, with one error for the group. */
export function CheckGroup(props: {
  name: string;
  legend: string;
  options: { value: string; label: string }[];
  children?: ReactNode;
}) {
  const { register } = useFormContext();
  const { id, error } = useField(props.name, props.legend);
  return (
    <fieldset
      id={id}
      tabIndex={-1}
      className={styles.fieldset}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend className={styles.legend}>
        {props.legend}
        <Star required />
      </legend>
      {props.options.map((o) => (
        <label key={o.value} className={styles.option}>
          <input type="checkbox" value={o.value} {...register(props.name)} />
          {o.label}
        </label>
      ))}
      {props.children}
      <ErrorText id={`${id}-error`} error={error} />
    </fieldset>
  );
}

/** After a submit, the fields to fix, each a link to its field, in page order. */
export function ErrorSummary() {
  const t = useT();
  const prefix = useContext(Prefix);
  const registry = useContext(Summary);
  const { formState } = useFormContext();
  if (formState.submitCount === 0 || !registry) return null;
  const idOf = (name: string) => `${prefix}${name.replace(/\W+/g, '-')}`;
  const entries = [...registry]
    .filter(([name]) => get(formState.errors, name))
    .sort(([a], [b]) => {
      const x = document.getElementById(idOf(a));
      const y = document.getElementById(idOf(b));
      if (!x || !y) return 0;
      return x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
    });
  if (entries.length === 0) return null;
  return (
    <div className={styles.summary} role="alert">
      <h3>{t('subscribe.error.summary')}</h3>
      <ul>
        {entries.map(([name, label]) => (
          <li key={name}>
            <a href={`#${idOf(name)}`}>{label}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The submit button and, after a failed post, 'Jotain meni vikaan' (spec §8). */
export function Submit(props: { status: Status; text: string }) {
  const t = useT();
  const sending = props.status === 'sending';
  return (
    <>
      <button type="submit" className={styles.submit} disabled={sending} aria-busy={sending}>
        {sending ? t('subscribe.sending') : props.text}
      </button>
      {props.status === 'error' ? (
        <p className={styles.error} role="alert">
          {t('subscribe.error.failed')}
        </p>
      ) : null}
    </>
  );
}

/** A success text that takes the focus, so it is read out. */
export function SuccessText(props: { text: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div ref={ref} className={styles.success} role="status" tabIndex={-1}>
      {props.text}
    </div>
  );
}

/** Pushes an analytics event to the tag manager's data layer. */
export function pushEvent(event: Record<string, unknown>): void {
  const w = window as unknown as { dataLayer?: Record<string, unknown>[] };
  w.dataLayer ??= [];
  w.dataLayer.push(event);
}
