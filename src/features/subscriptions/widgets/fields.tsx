import type { ReactNode } from 'react';
import { type FieldValues, type UseFormReturn, useFormContext } from 'react-hook-form';
import { useT } from '../../../i18n/react.tsx';
import {
  Checkbox,
  ErrorText,
  ErrorSummary as FormErrorSummary,
  FormFrame,
  Star,
  type Status,
  SubmitRow,
  TextField,
  useField,
} from '../../forms/index.ts';
import styles from './subscriptions.module.css';

/**
 * The widgets' forms on the forms feature's kit: fields tied to their labels and errors, the
 * error summary after a submit (links to the fields), the submit row with the failure text — the
 * site's failed-submit pattern, with the marketing lists' texts.
 */

export {
  pushEvent,
  type Status,
  SuccessText,
  useSchemaForm as useSubscribeForm,
} from '../../forms/index.ts';

export function Frame(props: {
  methods: UseFormReturn<FieldValues>;
  labelledBy?: string;
  onValid: (values: FieldValues) => unknown;
  children: ReactNode;
}) {
  return (
    <FormFrame
      methods={props.methods}
      {...(props.labelledBy ? { labelledBy: props.labelledBy } : {})}
      onSubmit={(event) => {
        event.preventDefault();
        void props.methods.handleSubmit(props.onValid)(event);
      }}
    >
      {props.children}
    </FormFrame>
  );
}

export function EmailField(props: { name?: string }) {
  const t = useT();
  return (
    <TextField
      name={props.name ?? 'email'}
      label={t('subscribe.field.email')}
      type="email"
      autoComplete="email"
      maxLength={254}
    />
  );
}

export function CheckField(props: { name: string; label: string; required?: boolean }) {
  return <Checkbox {...props} />;
}

/**
 * Checkboxes of one array field under a legend, with one error for the group; `also` is one more
 * box of a field of its own (a boolean) that counts toward the group's choice.
 */
export function CheckGroup(props: {
  name: string;
  legend: string;
  options: { value: string; label: string }[];
  also?: { name: string; label: string };
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
      {props.also ? (
        <label className={styles.option}>
          <input type="checkbox" {...register(props.also.name)} />
          {props.also.label}
        </label>
      ) : null}
      <ErrorText id={`${id}-error`} error={error} />
    </fieldset>
  );
}

/** After a submit, the fields to fix, each a link to its field, in page order. */
export function ErrorSummary() {
  const t = useT();
  return <FormErrorSummary heading={t('subscribe.error.summary')} />;
}

/** The submit button and, after a failed post, 'Jotain meni vikaan' (spec §8). */
export function Submit(props: { status: Status; text: string }) {
  const t = useT();
  return (
    <SubmitRow
      status={props.status}
      errorText={t('subscribe.error.failed')}
      submitText={props.text}
      sendingText={t('subscribe.sending')}
    />
  );
}
