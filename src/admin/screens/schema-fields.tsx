import { createContext, useContext } from 'react';
import { Button } from 'react-aria-components';
import { z } from 'zod';
import { isAdminMessageKey } from '../../i18n/admin.ts';
import styles from '../admin.module.css';
import { useT } from '../i18n.tsx';
import { CheckField, ChoiceSelect, Field, NumberField, TextAreaField } from '../ui.tsx';
import type { Scope } from './content-editor.tsx';
import { ImageField } from './image-field.tsx';
import { moved } from './recipe-form.ts';
import { RichTextField } from './rich-text-field.tsx';

/**
 * Fields drawn from a zod schema (decision 166): the page editor's blocks are edited through the
 * same schemas the renderer parses them with (`blockSchema`), so a field exists for every value
 * a block may hold and nothing else. Strings are text fields (long ones text areas, rich text
 * the rich-text editor), numbers number fields (a picture's id the image picker), booleans check
 * boxes, enums and unions of literals choices, objects groups of fields, arrays of objects lists
 * whose items are added, removed and moved by buttons. What the form holds is checked by the
 * schema before it is sent, and again by the server.
 */

type Def = {
  type: string;
  innerType?: Schema;
  shape?: Record<string, Schema>;
  element?: Schema;
  options?: Schema[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  defaultValue?: unknown;
  checks?: {
    _zod: { def: { check: string; minimum?: number; maximum?: number; value?: number } };
  }[];
};
export type Schema = z.ZodType & { _zod: { def: Def } };

const defOf = (schema: Schema): Def => schema._zod.def;

/** The schema inside optional, nullable and default wrappers, and what they said. */
export function unwrap(schema: Schema): {
  inner: Schema;
  optional: boolean;
  nullable: boolean;
  fallback: unknown;
} {
  let inner = schema;
  let optional = false;
  let nullable = false;
  let fallback: unknown;
  for (;;) {
    const def = defOf(inner);
    if (def.type === 'optional' && def.innerType) optional = true;
    else if (def.type === 'nullable' && def.innerType) nullable = true;
    else if (def.type === 'default' && def.innerType) {
      optional = true;
      fallback = def.defaultValue;
    } else break;
    inner = def.innerType as Schema;
  }
  return { inner, optional, nullable, fallback };
}

function check(schema: Schema, name: string): number | undefined {
  for (const c of defOf(schema).checks ?? []) {
    const d = c._zod.def;
    if (d.check === name) return d.minimum ?? d.maximum ?? d.value;
  }
  return undefined;
}

const isRichText = (schema: Schema) =>
  Boolean((z.globalRegistry.get(schema) as { richText?: boolean } | undefined)?.richText);
const isImage = (key: string) => /(^i|I)mageId$/.test(key);

/** The literal choices of a schema (an enum, or a union of literals), or undefined. */
function choicesOf(schema: Schema): (string | number)[] | undefined {
  const def = defOf(schema);
  if (def.type === 'enum' && def.entries) return Object.values(def.entries);
  if (def.type === 'union' && def.options?.every((o) => defOf(o).type === 'literal'))
    return def.options.flatMap((o) => (defOf(o).values ?? []) as (string | number)[]);
  return undefined;
}

/** A value for a new item of a schema: what a form starts with (required fields empty). */
export function initialOf(schema: Schema): unknown {
  const { inner, optional, nullable, fallback } = unwrap(schema);
  if (fallback !== undefined) return fallback;
  if (optional) return undefined;
  if (nullable) return null;
  const def = defOf(inner);
  switch (def.type) {
    case 'string':
      return '';
    case 'number':
      return check(inner, 'greater_than') ?? 0;
    case 'boolean':
      return false;
    case 'literal':
      return def.values?.[0];
    case 'enum':
    case 'union':
      return choicesOf(inner)?.[0];
    case 'array': {
      const min = check(inner, 'min_length') ?? 0;
      return Array.from({ length: min }, () => initialOf(def.element as Schema));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        const value = initialOf(field);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    default:
      return undefined;
  }
}

export type FieldKind =
  | 'choice'
  | 'richText'
  | 'text'
  | 'textarea'
  | 'image'
  | 'number'
  | 'boolean'
  | 'object'
  | 'array'
  | 'none';

/** How a value of a schema is edited (its key decides a picture's id). */
export function kindOf(key: string, schema: Schema): FieldKind {
  const { inner } = unwrap(schema);
  if (choicesOf(inner)) return 'choice';
  switch (defOf(inner).type) {
    case 'string':
      if (isRichText(inner)) return 'richText';
      return (check(inner, 'max_length') ?? 0) > 300 ? 'textarea' : 'text';
    case 'number':
      return isImage(key) ? 'image' : 'number';
    case 'boolean':
      return 'boolean';
    case 'object':
      return 'object';
    case 'array':
      return 'array';
    default:
      return 'none';
  }
}

/** Every field of a schema with its path (`slides.*.text`) and kind, for checking the walk. */
export function fieldsOf(schema: Schema, path = ''): [path: string, kind: FieldKind][] {
  const { inner } = unwrap(schema);
  const def = defOf(inner);
  if (def.type === 'object') {
    return Object.entries(def.shape ?? {}).flatMap(([key, field]) => {
      const at = path ? `${path}.${key}` : key;
      const kind = kindOf(key, field);
      if (key === 'type' && defOf(field).type === 'literal') return [];
      return kind === 'object' || kind === 'array'
        ? fieldsOf(field, at)
        : [[at, kind] as [string, FieldKind]];
    });
  }
  if (def.type === 'array' && def.element) {
    const element = def.element;
    const kind = kindOf('', element);
    return kind === 'object' || kind === 'array'
      ? fieldsOf(element, `${path}.*`)
      : [[`${path}.*`, kind]];
  }
  return [];
}

/** Where the fields are: the site and language (for pictures) and the name's prefix. */
const FieldsContext = createContext<{ scope: Scope }>({ scope: { siteId: '', lang: '' } });
export const SchemaFieldsScope = FieldsContext.Provider;

/** A field's label: the catalogue's `admin.block.field.<key>`, or the key itself. */
export function useKeyLabel() {
  const { t } = useT();
  return (key: string) => {
    const id = `admin.block.field.${key}`;
    return isAdminMessageKey(id) ? t(id) : key;
  };
}

/** The fields of an object schema (its `type` literal left out: it is the block's kind). */
export function ObjectFields({
  schema,
  value,
  onChange,
  name,
  idPrefix,
}: {
  schema: Schema;
  value: Record<string, unknown>;
  onChange: (value: Record<string, unknown>) => void;
  /** The API's name of the object (`document.blocks.2`); a field is `<name>.<key>`. */
  name: string;
  idPrefix: string;
}) {
  const shape = defOf(unwrap(schema).inner).shape ?? {};
  return (
    <>
      {Object.entries(shape).map(([key, field]) =>
        key === 'type' && defOf(field).type === 'literal' ? null : (
          <SchemaField
            key={key}
            fieldKey={key}
            schema={field}
            value={value[key]}
            onChange={(next) => {
              const out = { ...value };
              if (next === undefined) delete out[key];
              else out[key] = next;
              onChange(out);
            }}
            name={`${name}.${key}`}
            idPrefix={`${idPrefix}-${key}`}
          />
        ),
      )}
    </>
  );
}

/** One value of a schema as its field. */
export function SchemaField({
  fieldKey,
  schema,
  value,
  onChange,
  name,
  idPrefix,
  label: given,
}: {
  fieldKey: string;
  schema: Schema;
  value: unknown;
  onChange: (value: unknown) => void;
  name: string;
  idPrefix: string;
  label?: string;
}) {
  const keyLabel = useKeyLabel();
  const { scope } = useContext(FieldsContext);
  const { inner, optional, nullable } = unwrap(schema);
  const label = given ?? keyLabel(fieldKey);
  const blank = optional || nullable;
  const empty = optional ? undefined : null;
  const kind = kindOf(fieldKey, schema);
  const choices = choicesOf(inner);
  if (kind === 'choice' && choices) {
    return (
      <SchemaChoice
        name={name}
        label={label}
        choices={choices}
        blank={blank}
        value={value}
        onChange={(chosen) => onChange(chosen ?? empty)}
      />
    );
  }
  switch (kind) {
    case 'richText':
    case 'text':
    case 'textarea':
      return (
        <SchemaText
          kind={kind}
          name={name}
          label={label}
          id={idPrefix}
          value={typeof value === 'string' ? value : ''}
          onChange={(next) => onChange(next === '' && blank ? empty : next)}
        />
      );
    case 'image':
      return (
        <ImageField
          scope={scope}
          label={label}
          name={name}
          imageId={typeof value === 'number' ? value : null}
          onChange={(id) => onChange(id ?? empty)}
        />
      );
    case 'number':
      return (
        <NumberField
          name={name}
          label={label}
          id={idPrefix}
          value={value === undefined || value === null ? '' : String(value)}
          onChange={(typed) => {
            const trimmed = typed.trim().replace(',', '.');
            if (trimmed === '') onChange(blank ? empty : typed);
            else onChange(Number.isFinite(Number(trimmed)) ? Number(trimmed) : typed);
          }}
        />
      );
    case 'boolean':
      return (
        <CheckField
          isSelected={value === true}
          onChange={(selected) => onChange(selected)}
          id={idPrefix}
        >
          {label}
        </CheckField>
      );
    case 'object':
      return (
        <fieldset className={styles.grant}>
          <legend>{label}</legend>
          <ObjectFields
            schema={inner}
            value={(value ?? {}) as Record<string, unknown>}
            onChange={onChange}
            name={name}
            idPrefix={idPrefix}
          />
        </fieldset>
      );
    case 'array':
      return (
        <ArrayField
          label={label}
          schema={inner}
          value={Array.isArray(value) ? value : []}
          onChange={(next) => onChange(next.length === 0 && optional ? undefined : next)}
          name={name}
          idPrefix={idPrefix}
        />
      );
    default:
      return null;
  }
}

/** A schema's enum as a select; a field that may be blank has "none" first (`undefined` out). */
function SchemaChoice({
  name,
  label,
  choices,
  blank,
  value,
  onChange,
}: {
  name: string;
  label: string;
  choices: readonly (string | number)[];
  blank: boolean;
  value: unknown;
  onChange: (chosen: unknown) => void;
}) {
  const { t } = useT();
  const none = '__none__';
  return (
    <ChoiceSelect
      name={name}
      label={label}
      options={[
        ...(blank ? ([[none, t('admin.block.none')]] as const) : []),
        ...choices.map((c) => [String(c), String(c)] as const),
      ]}
      value={value === undefined || value === null ? (blank ? none : undefined) : String(value)}
      onChange={(chosen) =>
        onChange(
          chosen === none ? undefined : (choices.find((c) => String(c) === chosen) ?? chosen),
        )
      }
    />
  );
}

/** A text of a schema: one line, several lines, or rich text. */
function SchemaText({
  kind,
  name,
  label,
  id,
  value,
  onChange,
}: {
  kind: 'richText' | 'text' | 'textarea';
  name: string;
  label: string;
  id: string;
  value: string;
  onChange: (text: string) => void;
}) {
  if (kind === 'richText') {
    return <RichTextField label={label} name={name} value={value} onChange={onChange} id={id} />;
  }
  return kind === 'textarea' ? (
    <TextAreaField name={name} label={label} rows={3} value={value} onChange={onChange} id={id} />
  ) : (
    <Field name={name} label={label} value={value} onChange={onChange} id={id} />
  );
}

/** A list of items of one schema: each in its group, moved, removed and added by buttons. */
function ArrayField({
  label,
  schema,
  value,
  onChange,
  name,
  idPrefix,
}: {
  label: string;
  schema: Schema;
  value: unknown[];
  onChange: (value: unknown[]) => void;
  name: string;
  idPrefix: string;
}) {
  const { t } = useT();
  const element = defOf(schema).element as Schema;
  const max = check(schema, 'max_length') ?? Number.POSITIVE_INFINITY;
  const min = check(schema, 'min_length') ?? 0;
  const objects = defOf(unwrap(element).inner).type === 'object';
  const focus = (id: string) => requestAnimationFrame(() => document.getElementById(id)?.focus());
  return (
    <fieldset className={styles.grant}>
      <legend>{label}</legend>
      <ol className={styles.plainList}>
        {value.map((item, i) => {
          const itemLabel = t('admin.block.item', { name: label, n: i + 1 });
          const id = `${idPrefix}-${i}`;
          return (
            // Items have no identity of their own; their place is their key.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={i}>
              {objects ? (
                <fieldset className={styles.grant}>
                  <legend>{itemLabel}</legend>
                  <ObjectFields
                    schema={element}
                    value={(item ?? {}) as Record<string, unknown>}
                    onChange={(next) => onChange(value.map((x, j) => (j === i ? next : x)))}
                    name={`${name}.${i}`}
                    idPrefix={id}
                  />
                </fieldset>
              ) : (
                <SchemaField
                  fieldKey={String(i)}
                  label={itemLabel}
                  schema={element}
                  value={item}
                  onChange={(next) => onChange(value.map((x, j) => (j === i ? next : x)))}
                  name={`${name}.${i}`}
                  idPrefix={id}
                />
              )}
              <div className={styles.inlineActions}>
                <Button
                  id={`${id}-up`}
                  className={styles.secondary}
                  aria-label={t('admin.block.moveItemUp', { name: itemLabel })}
                  onPress={() => {
                    onChange(moved(value, i, -1));
                    focus(`${idPrefix}-${Math.max(0, i - 1)}-up`);
                  }}
                >
                  {t('admin.recipe.moveUp')}
                </Button>
                <Button
                  id={`${id}-down`}
                  className={styles.secondary}
                  aria-label={t('admin.block.moveItemDown', { name: itemLabel })}
                  onPress={() => {
                    onChange(moved(value, i, 1));
                    focus(`${idPrefix}-${Math.min(value.length - 1, i + 1)}-down`);
                  }}
                >
                  {t('admin.recipe.moveDown')}
                </Button>
                {value.length > min ? (
                  <Button
                    className={styles.secondary}
                    aria-label={t('admin.block.removeItem', { name: itemLabel })}
                    onPress={() => {
                      onChange(value.filter((_, j) => j !== i));
                      focus(`${idPrefix}-add`);
                    }}
                  >
                    {t('admin.recipe.remove')}
                  </Button>
                ) : null}
              </div>
            </li>
          );
        })}
      </ol>
      {value.length < max ? (
        <Button
          id={`${idPrefix}-add`}
          className={styles.secondary}
          onPress={() => onChange([...value, initialOf(element)])}
        >
          {t('admin.block.addItem', { name: label })}
        </Button>
      ) : null}
    </fieldset>
  );
}
