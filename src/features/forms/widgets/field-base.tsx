import { createContext, useContext, useEffect } from 'react';
import { get, useFormContext } from 'react-hook-form';
import { useT } from '../../../i18n/react.tsx';
import type { MessageKey } from '../../../i18n/translate.ts';
import styles from './forms.module.css';

/** The id prefix of one form; islands have their own id prefixes, so ids are unique on a page. */
export const IdContext = createContext('form-');

/** The id of a field's input, unique on the page. */
export function useFieldId(name: string): string {
  return `${useContext(IdContext)}${name.replace(/\W+/g, '-')}`;
}

export interface FieldError {
  message?: unknown;
  Data?: { message?: unknown };
}

export function errorAt(errors: unknown, name: string): FieldError | undefined {
  return get(errors, name) as FieldError | undefined;
}

/** The message key of a field's error, if it has one. */
export function useErrorKey(name: string): MessageKey | undefined {
  const { formState } = useFormContext();
  const message = errorAt(formState.errors, name)?.message;
  return typeof message === 'string' && message ? (message as MessageKey) : undefined;
}

/** The star of a required field; screen readers hear `aria-required` instead. */
export function Star(props: { required: boolean }) {
  return props.required ? (
    <span className={styles.star} aria-hidden="true">
      {' '}
      *
    </span>
  ) : null;
}

export function Label(props: { htmlFor?: string; id?: string; text: string; required: boolean }) {
  return (
    <label htmlFor={props.htmlFor} id={props.id}>
      {props.text}
      <Star required={props.required} />
    </label>
  );
}

export function ErrorText(props: { id: string; error: MessageKey | undefined }) {
  const t = useT();
  return props.error ? (
    <p id={props.id} className={styles.error}>
      {t(props.error)}
    </p>
  ) : null;
}

/** The fields of one form that the error summary can name, by field name. */
export type SummaryRegistry = Map<string, string>;

export const SummaryContext = createContext<SummaryRegistry | null>(null);

/** Names a field in its form's error summary (listed, in page order, while it has an error). */
export function useSummaryEntry(name: string, label: string | undefined): void {
  const registry = useContext(SummaryContext);
  useEffect(() => {
    if (!registry || label === undefined) return;
    registry.set(name, label);
    return () => {
      registry.delete(name);
    };
  }, [registry, name, label]);
}

/** A field's id and error key, and its entry in the form's error summary. */
export function useField(name: string, summaryLabel: string | undefined) {
  const id = useFieldId(name);
  const error = useErrorKey(name);
  useSummaryEntry(name, summaryLabel);
  return { id, error };
}
