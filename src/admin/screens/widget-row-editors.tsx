import {
  type JobDocument,
  jobDocumentSchema,
  type MapRegionDocument,
  mapRegionDocumentSchema,
  type SchoolMaterialDocument,
  schoolMaterialDocumentSchema,
  type TimelineYearDocument,
  timelineYearDocumentSchema,
} from '../../features/content/admin.ts';
import type { AdminMessageKey } from '../../i18n/admin.ts';
import { DateField } from '../date-field.tsx';
import { useT } from '../i18n.tsx';
import { Field, NumberField, Section, TextAreaField } from '../ui.tsx';
import type { EditorKind } from './content-editor.tsx';
import { ImageField } from './image-field.tsx';
import { endOfFinnishDay, finnishDay } from './job-dates.ts';
import { type FieldsOf, type KindEditor, kindEditorScreen } from './kind-editor.tsx';
import { madeOf } from './kind-form.ts';
import { jobsList, type ListKind, mapList, materialsList, timelineList } from './kind-lists.tsx';

/**
 * The editors of rows shown in other pages' widgets (decision 171): a job listing (the jobs
 * widget lists it until its application period ends), a school material (the materials list
 * and the order form), a year of the history timeline and a button of the map of plants.
 * Versions, drafts and publishing as for any item; no preview, as they have no page of their
 * own. Each form is its document's fields as typed, drawn from a list of them.
 */

/** A field of a row's form: its name (the document's), how it is typed, and its hint. */
type RowField<Form> = {
  name: keyof Form & string;
  type: 'text' | 'link' | 'lines' | 'number' | 'day' | 'image';
  hint?: AdminMessageKey;
};

/** A form of text fields (and a picture), typed as the fields' list says. */
type RowForm = Record<string, string | number | null>;

type RowTexts = 'admin.job' | 'admin.material' | 'admin.timeline' | 'admin.map';

/** The form's fields from their list: labels `<texts>.field.<name>`, errors by `document.<name>`. */
function RowFields<Form extends RowForm>({
  texts,
  fields,
  form,
  change,
  scope,
}: Parameters<FieldsOf<Form>>[0] & { texts: RowTexts; fields: readonly RowField<Form>[] }) {
  const { t } = useT();
  return (
    <Section id={`${texts.slice('admin.'.length)}-content`} title={t(`${texts}.content`)}>
      {fields.map(({ name, type, hint }) => {
        const label = t(`${texts}.field.${name}` as AdminMessageKey);
        const common = {
          name: `document.${name}`,
          label,
          ...(hint ? { description: t(hint) } : {}),
        };
        const text = String(form[name] ?? '');
        const set = (value: string | number | null) =>
          change({ [name]: value } as unknown as Partial<Form>);
        if (type === 'image') {
          const imageId = form[name];
          return (
            <ImageField
              key={name}
              scope={scope}
              name={common.name}
              label={label}
              imageId={typeof imageId === 'number' ? imageId : null}
              onChange={set}
            />
          );
        }
        if (type === 'day') {
          return <DateField key={name} {...common} value={text} onChange={set} />;
        }
        if (type === 'lines') {
          return <TextAreaField key={name} {...common} rows={3} value={text} onChange={set} />;
        }
        if (type === 'number') {
          return <NumberField key={name} {...common} value={text} onChange={set} />;
        }
        const link = type === 'link' ? { type: 'url' } : {};
        return <Field key={name} {...common} {...link} value={text} onChange={set} />;
      })}
    </Section>
  );
}

/** The fields of a kind of row, as the editor frame takes them. */
function rowFields<Form extends RowForm>(
  texts: RowTexts,
  fields: readonly RowField<Form>[],
): FieldsOf<Form> {
  return (props) => <RowFields texts={texts} fields={fields} {...props} />;
}

/** A whole number as typed (`''` and anything else that is none: NaN, refused by the schema). */
const whole = (text: string | number | null) =>
  String(text ?? '').trim() === '' ? Number.NaN : Number(String(text).trim());

/** The editor kind of a widget row: its list's API and cache, and its texts. */
function rowKind(list: ListKind, itemKey: string, idPrefix: string, texts: string): EditorKind {
  return {
    api: list.api,
    itemKey,
    listKey: list.listKey,
    idPrefix,
    presentText: `${texts}.present` as AdminMessageKey,
    preview: false,
  };
}

/** The editor of a widget row: its kind, list and texts, and how its form is its document. */
function rowEditor<Doc extends object, Form>(
  list: ListKind,
  itemKey: string,
  texts: RowTexts,
  convert: Pick<KindEditor<Doc, Form>, 'titleOf' | 'formOf' | 'documentOf'>,
): KindEditor<Doc, Form> {
  const idPrefix = texts.slice('admin.'.length);
  return {
    kind: rowKind(list, itemKey, idPrefix, texts),
    list,
    newHeading: `${texts}.newHeading` as AdminMessageKey,
    forbidden: `${texts}.forbidden` as AdminMessageKey,
    notFound: `${texts}.notFound` as AdminMessageKey,
    fieldTexts: `${texts}.field`,
    ...convert,
  };
}

// Job listings: the last day to apply is typed as a day and kept as its last second in Finland.
type JobForm = Omit<JobDocument, 'applicationPeriodEnd'> & { applicationPeriodEnd: string };
export const JobEditorScreen = kindEditorScreen(
  rowEditor<JobDocument, JobForm>(jobsList, 'job', 'admin.job', {
    titleOf: (doc) => doc.title,
    formOf: (doc) => ({ ...doc, applicationPeriodEnd: finnishDay(doc.applicationPeriodEnd) }),
    documentOf: (form) =>
      madeOf(
        jobDocumentSchema.safeParse({
          ...form,
          url: form.url.trim(),
          applicationPeriodEnd: endOfFinnishDay(form.applicationPeriodEnd) ?? '',
        }),
      ),
  }),
  () => ({ title: '', city: '', url: '', applicationPeriodEnd: '' }),
  rowFields<JobForm>('admin.job', [
    { name: 'title', type: 'text' },
    { name: 'city', type: 'text' },
    { name: 'url', type: 'link', hint: 'admin.kinds.linkHint' },
    { name: 'applicationPeriodEnd', type: 'day', hint: 'admin.job.endHint' },
  ]),
);

type MaterialForm = Omit<SchoolMaterialDocument, 'sortOrder'> & { sortOrder: string };
export const SchoolMaterialEditorScreen = kindEditorScreen(
  rowEditor<SchoolMaterialDocument, MaterialForm>(
    materialsList,
    'school-material',
    'admin.material',
    {
      titleOf: (doc) => doc.material,
      formOf: (doc) => ({ ...doc, sortOrder: String(doc.sortOrder) }),
      documentOf: (form) =>
        madeOf(
          schoolMaterialDocumentSchema.safeParse({
            ...form,
            url: form.url.trim(),
            sortOrder: form.sortOrder.trim() === '' ? 0 : whole(form.sortOrder),
          }),
        ),
    },
  ),
  () => ({ material: '', url: '', description: '', topic: '', sortOrder: '0' }),
  rowFields<MaterialForm>('admin.material', [
    { name: 'material', type: 'text' },
    { name: 'url', type: 'link', hint: 'admin.kinds.linkHint' },
    { name: 'description', type: 'lines' },
    { name: 'topic', type: 'text' },
    { name: 'sortOrder', type: 'number', hint: 'admin.material.sortHint' },
  ]),
);

type TimelineForm = Omit<TimelineYearDocument, 'year'> & { year: string };
export const TimelineYearEditorScreen = kindEditorScreen(
  rowEditor<TimelineYearDocument, TimelineForm>(timelineList, 'timeline-year', 'admin.timeline', {
    titleOf: (doc) => `${doc.year}: ${doc.title}`,
    formOf: (doc) => ({ ...doc, year: String(doc.year) }),
    documentOf: (form) =>
      madeOf(timelineYearDocumentSchema.safeParse({ ...form, year: whole(form.year) })),
  }),
  () => ({ year: '', title: '', text: '', imageId: null }),
  rowFields<TimelineForm>('admin.timeline', [
    { name: 'year', type: 'number' },
    { name: 'title', type: 'text' },
    { name: 'text', type: 'lines' },
    { name: 'imageId', type: 'image' },
  ]),
);

type MapForm = Omit<MapRegionDocument, 'number'> & { number: string };
export const MapRegionEditorScreen = kindEditorScreen(
  rowEditor<MapRegionDocument, MapForm>(mapList, 'map-region', 'admin.map', {
    titleOf: (doc) => `${doc.number}. ${doc.buttonLabel}`,
    formOf: (doc) => ({ ...doc, number: String(doc.number) }),
    documentOf: (form) =>
      madeOf(mapRegionDocumentSchema.safeParse({ ...form, number: whole(form.number) })),
  }),
  () => ({ number: '', buttonLabel: '', buttonRegion: '', buttonInfo: '' }),
  rowFields<MapForm>('admin.map', [
    { name: 'number', type: 'number', hint: 'admin.map.numberHint' },
    { name: 'buttonLabel', type: 'text' },
    { name: 'buttonRegion', type: 'text' },
    { name: 'buttonInfo', type: 'lines' },
  ]),
);
