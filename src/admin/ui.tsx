import { createContext, type ReactNode, useContext } from 'react';
import {
  Button,
  Cell,
  Checkbox,
  type CheckboxProps,
  Column,
  Dialog,
  DialogTrigger,
  FieldError,
  Form,
  type FormProps,
  Heading,
  Input,
  type Key,
  Label,
  ListBox,
  ListBoxItem,
  Modal,
  Popover,
  Radio,
  RadioGroup,
  Row,
  Select,
  SelectValue,
  Table,
  TableBody,
  TableHeader,
  Text,
  TextArea,
  TextField,
  type TextFieldProps,
} from 'react-aria-components';
import styles from './admin.module.css';
import { ApiError, ReauthCancelled } from './api.ts';
import { useT } from './i18n.tsx';

const FieldErrors = createContext<Record<string, string>>({});

/** The server's error for the field `name` of the `AdminForm` around it. */
export const useFieldError = (name: string): string | undefined => useContext(FieldErrors)[name];

/**
 * A form whose fields show the server's errors (by field name) until the next submit. Not React
 * Aria's `validationErrors`: those vanish when a field loses focus, which moves the submit button
 * under the pointer that is pressing it.
 */
export function AdminForm({
  errors,
  children,
  ...props
}: Omit<FormProps, 'validationErrors' | 'validationBehavior'> & {
  errors: Record<string, string>;
  children: ReactNode;
}) {
  return (
    <FieldErrors.Provider value={errors}>
      <Form {...props} validationBehavior="aria">
        {children}
      </Form>
    </FieldErrors.Provider>
  );
}

/** A labelled text field; its error is the server's for its `name` (see `AdminForm`). */
export function Field({
  label,
  description,
  type = 'text',
  short,
  ...props
}: TextFieldProps & {
  label: string;
  description?: string;
  type?: string;
  /** A field for a few characters (a quantity): a narrow input. */
  short?: boolean;
}) {
  const error = useContext(FieldErrors)[props.name ?? ''];
  return (
    <TextField
      {...props}
      type={type}
      isInvalid={Boolean(error)}
      className={short ? `${styles.field} ${styles.short}` : styles.field}
    >
      <Label className={styles.label}>{label}</Label>
      <Input className={styles.input} />
      {description ? (
        <Text slot="description" className={styles.description}>
          {description}
        </Text>
      ) : null}
      <FieldError className={styles.fieldError}>{error}</FieldError>
    </TextField>
  );
}

/** A short field for a number typed by hand: a count, or with `decimal` euros and cents. */
export function NumberField({
  decimal,
  ...props
}: Omit<Parameters<typeof Field>[0], 'inputMode' | 'short'> & { decimal?: boolean }) {
  return <Field inputMode={decimal ? 'decimal' : 'numeric'} autoComplete="off" short {...props} />;
}

/** A checkbox drawn as the back office draws them, its label beside the box. */
export function CheckField({ children, ...props }: CheckboxProps & { children: ReactNode }) {
  return (
    <Checkbox {...props} className={styles.checkbox}>
      <span className={styles.box} aria-hidden="true" />
      {children}
    </Checkbox>
  );
}

/** A labelled multi-line text field; its error is the server's for its `name`. */
export function TextAreaField({
  label,
  description,
  rows = 5,
  ...props
}: Omit<TextFieldProps, 'children'> & { label: string; description?: string; rows?: number }) {
  const error = useContext(FieldErrors)[props.name ?? ''];
  return (
    <TextField {...props} isInvalid={Boolean(error)} className={styles.field}>
      <Label className={styles.label}>{label}</Label>
      <TextArea className={styles.input} rows={rows} />
      {description ? (
        <Text slot="description" className={styles.description}>
          {description}
        </Text>
      ) : null}
      <FieldError className={styles.fieldError}>{error}</FieldError>
    </TextField>
  );
}

/** A labelled choice of a few options (a button that opens a list), sent as `name`. */
export function ChoiceSelect({
  name,
  label,
  options,
  defaultValue,
  value,
  onChange,
}: {
  name: string;
  label: string;
  options: readonly (readonly [id: string, text: string])[];
  defaultValue?: string;
  value?: string;
  onChange?: (id: string) => void;
}) {
  const error = useContext(FieldErrors)[name];
  return (
    <Select
      name={name}
      {...(value === undefined ? { defaultSelectedKey: defaultValue } : { selectedKey: value })}
      onSelectionChange={(key) => onChange?.(String(key))}
      isInvalid={Boolean(error)}
      className={styles.field}
    >
      <Label className={styles.label}>{label}</Label>
      <Button className={styles.select}>
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <FieldError className={styles.fieldError}>{error}</FieldError>
      <Popover className={styles.popover}>
        <ListBox className={styles.listBox}>
          {options.map(([id, text]) => (
            <ListBoxItem key={id} id={id} className={styles.option}>
              {text}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </Select>
  );
}

/** A titled part of a screen, named by its heading for landmarks' lists. */
export function Section({
  id,
  title,
  focusable,
  children,
}: {
  id: string;
  title: string;
  /** Whether its heading takes focus from code (where focus goes when its button is gone). */
  focusable?: boolean;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={styles.panel}>
      <Heading level={2} id={id} {...(focusable ? { tabIndex: -1 } : {})}>
        {title}
      </Heading>
      {children}
    </section>
  );
}

/**
 * A form's submit button. React Aria's pending state is not used: its announcement points at the
 * button by id, which is gone once the form gives way to the next screen (axe: role-img-alt).
 */
export function Submit({ children }: { children: ReactNode }) {
  return (
    <Button type="submit" className={styles.primary}>
      {children}
    </Button>
  );
}

/**
 * The back office's modal dialog, inside a `DialogTrigger`: Escape and a press outside shut it,
 * and its content gets the function that closes it.
 */
export function ModalDialog({ children }: { children: (close: () => void) => ReactNode }) {
  return (
    <Modal isDismissable className={styles.modal}>
      <Dialog className={styles.dialog}>{({ close }) => children(close)}</Dialog>
    </Modal>
  );
}

/**
 * A button (a secondary one unless `primary`) that opens a `ModalDialog`; `ariaLabel` says what it
 * acts on where the same button stands by each of several things.
 */
export function DialogButton({
  label,
  ariaLabel,
  primary,
  children,
}: {
  label: string;
  ariaLabel?: string;
  primary?: boolean;
  children: (close: () => void) => ReactNode;
}) {
  return (
    <DialogTrigger>
      <Button className={primary ? styles.primary : styles.secondary} aria-label={ariaLabel}>
        {label}
      </Button>
      <ModalDialog>{children}</ModalDialog>
    </DialogTrigger>
  );
}

/**
 * A dialog asking to confirm an action: its heading, what it does, and its buttons (`danger`: a
 * red one, where it cannot be undone). Confirming closes the dialog, then runs `onConfirm`.
 */
export function ConfirmForm({
  heading,
  lead,
  confirm,
  cancel,
  danger,
  close,
  onConfirm,
}: {
  heading: string;
  lead: string;
  confirm: string;
  cancel: string;
  danger?: boolean;
  close: () => void;
  onConfirm: () => Promise<void>;
}) {
  return (
    <AdminForm
      errors={{}}
      onSubmit={async (event) => {
        event.preventDefault();
        // The dialog is a portal: its submit must not reach a form around its button.
        event.stopPropagation();
        close();
        await onConfirm();
      }}
    >
      <Heading slot="title">{heading}</Heading>
      <p>{lead}</p>
      <DialogActions confirm={confirm} cancel={cancel} close={close} danger={danger} />
    </AdminForm>
  );
}

/**
 * A screen's button that opens a form for something new in a `ModalDialog`. The form gets `done`,
 * which hands what it made to `onDone` and closes the dialog, and `cancel`, which only closes it.
 */
export function CreateDialog<Made>({
  label,
  onDone,
  children,
}: {
  label: string;
  onDone: (made: Made) => void;
  children: (done: (made: Made) => void, cancel: () => void) => ReactNode;
}) {
  return (
    <DialogButton label={label} primary>
      {(close) =>
        children((made) => {
          onDone(made);
          close();
        }, close)
      }
    </DialogButton>
  );
}

/**
 * A dialog form's buttons: its action (a red one where it cannot be undone, `danger`) and the
 * cancel that closes the dialog.
 */
export function DialogActions({
  confirm,
  cancel,
  danger,
  close,
}: {
  confirm: ReactNode;
  cancel: string;
  danger?: boolean;
  close: () => void;
}) {
  return (
    <div className={styles.actions}>
      {danger ? (
        <Button type="submit" className={styles.danger}>
          {confirm}
        </Button>
      ) : (
        <Submit>{confirm}</Submit>
      )}
      <Button className={styles.secondary} onPress={close}>
        {cancel}
      </Button>
    </div>
  );
}

/** The field errors of an API error as texts, for a form's `validationErrors`. */
export function useFieldErrors(error: unknown): Record<string, string> {
  const { error: text, t } = useT();
  if (!(error instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const [field, key] of Object.entries(error.errors)) out[field] = text(key) ?? key;
  if (error.status === 429) {
    const minutes = Math.max(1, Math.ceil((error.retryAfter ?? 60) / 60));
    out._ = t('admin.error.locked', { minutes });
  }
  return out;
}

/** A form's summary of what went wrong, read out as it appears. */
export function ErrorSummary({ error }: { error: unknown }) {
  const { t } = useT();
  const fields = useFieldErrors(error);
  if (!error || error instanceof ReauthCancelled) return null;
  const messages = Object.values(fields);
  if (messages.length === 0) {
    const forbidden = error instanceof ApiError && error.status === 403;
    messages.push(t(forbidden ? 'admin.error.forbidden' : 'admin.error.server'));
  }
  return (
    <div role="alert" className={styles.errorSummary}>
      <p className={styles.errorTitle}>{t('admin.errorSummary')}</p>
      <ul>
        {[...new Set(messages)].map((m) => (
          <li key={m}>{m}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * A live region that is always in the page (so that what is put in it is read out), showing
 * `text` as a notice when there is one.
 */
export function LiveStatus({ text }: { text: string | null | undefined }) {
  return <div role="status">{text ? <p className={styles.notice}>{text}</p> : null}</div>;
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <p role="status" className={styles.notice}>
      {children}
    </p>
  );
}

/**
 * A labelled choice between a few options shown as radio buttons, each option's id its value;
 * an option may be disabled.
 */
export function ChoiceRadios<Id extends string>({
  label,
  options,
  value,
  onChange,
  name,
}: {
  label: string;
  options: readonly (readonly [id: Id, text: string, disabled?: boolean])[];
  value: Id;
  onChange: (id: Id) => void;
  name?: string;
}) {
  return (
    <RadioGroup
      {...(name ? { name } : {})}
      value={value}
      onChange={(chosen) => {
        const option = options.find(([id]) => id === chosen);
        if (option) onChange(option[0]);
      }}
      className={styles.field}
    >
      <Label className={styles.label}>{label}</Label>
      {options.map(([id, text, disabled]) => (
        <Radio key={id} value={id} className={styles.radio} isDisabled={Boolean(disabled)}>
          <span className={styles.dot} aria-hidden="true" />
          {text}
        </Radio>
      ))}
    </RadioGroup>
  );
}

/**
 * A column of a `GridTable`: its heading (each cell's label too, on a phone), its cell, and the
 * cell's class where it has one.
 */
export type GridColumn<Item> = [
  heading: string,
  cell: (item: Item) => ReactNode,
  className?: string,
];

/**
 * A list screen's rows as a grid that the arrow keys move through, named by `label`; the first
 * column names each row for screen readers. `onRowAction` is what Enter on a row does, and
 * `empty` what the table says when it has no rows.
 */
export function GridTable<Item extends { id: Key }>({
  label,
  columns,
  items,
  empty,
  onRowAction,
}: {
  label: string;
  columns: GridColumn<Item>[];
  items: Item[];
  empty?: string;
  onRowAction?: (key: Key) => void;
}) {
  return (
    <div className={styles.tableWrap}>
      <Table aria-label={label} className={styles.table} onRowAction={onRowAction}>
        <TableHeader>
          {columns.map(([heading], index) => (
            <Column key={heading} isRowHeader={index === 0}>
              {heading}
            </Column>
          ))}
        </TableHeader>
        <TableBody items={items} renderEmptyState={empty === undefined ? undefined : () => empty}>
          {(item) => (
            <Row id={item.id}>
              {columns.map(([heading, cell, className]) => (
                <Cell key={heading} data-label={heading} className={className}>
                  {cell(item)}
                </Cell>
              ))}
            </Row>
          )}
        </TableBody>
      </Table>
    </div>
  );
}
