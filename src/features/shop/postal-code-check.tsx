import type { ButtonHTMLAttributes, FormEvent, ReactNode, RefObject } from 'react';
import { PostalCodeInput } from './postal-code-input.tsx';
import styles from './shop.module.css';

/**
 * A shop check at a postal code (the product's delivery dates, the delivery area): a titled box
 * with the code's field and button, and the result below them, read out as it changes and tied
 * to the field once there is one. `id` (the caller's `useId`) names the box's parts.
 */
export function PostalCodeCheck(props: {
  id: string;
  className: string | undefined;
  heading: string;
  label: string;
  inputRef: RefObject<HTMLInputElement | null>;
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
  /** A check under way. */
  busy: boolean;
  /** Whether there is a result to tie the field to. */
  answered: boolean;
  onSubmit: (event: FormEvent) => void;
  submitText: string;
  submitProps?: Pick<ButtonHTMLAttributes<HTMLButtonElement>, 'disabled' | 'aria-disabled'>;
  /** The result. */
  children: ReactNode;
}) {
  const { id } = props;
  const resultId = `${id}-result`;
  return (
    <section className={props.className} aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{props.heading}</h2>
      <form onSubmit={props.onSubmit} noValidate aria-busy={props.busy}>
        <label htmlFor={`${id}-code`}>{props.label}</label>
        <div className={styles.inline}>
          <PostalCodeInput
            id={`${id}-code`}
            inputRef={props.inputRef}
            value={props.value}
            onChange={props.onChange}
            invalid={props.invalid}
            describedBy={props.answered ? resultId : undefined}
          />
          <button type="submit" className={styles.secondary} {...props.submitProps}>
            {props.submitText}
          </button>
        </div>
      </form>
      <div role="status" aria-live="polite" id={resultId}>
        {props.children}
      </div>
    </section>
  );
}
