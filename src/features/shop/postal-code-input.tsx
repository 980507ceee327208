import type { RefObject } from 'react';
import styles from './shop.module.css';

/** The postal-code box of the shop's delivery checks: numeric keyboard, tied to its result. */
export function PostalCodeInput(props: {
  id: string;
  inputRef: RefObject<HTMLInputElement | null>;
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
  /** The result's element, once there is a result to read. */
  describedBy: string | undefined;
}) {
  return (
    <input
      ref={props.inputRef}
      id={props.id}
      name="postalCode"
      className={styles.textInput}
      inputMode="numeric"
      autoComplete="postal-code"
      value={props.value}
      aria-invalid={props.invalid || undefined}
      aria-describedby={props.describedBy}
      onChange={(event) => props.onChange(event.target.value)}
    />
  );
}
