import { useParams } from 'react-router';
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
import { DateField } from '../date-field.tsx';
import { useT } from '../i18n.tsx';
import { Field, NumberField, Section, TextAreaField } from '../ui.tsx';
import type { EditorKind } from './content-editor.tsx';
import { ImageField } from './image-field.tsx';
import { endOfFinnishDay, finnishDay } from './job-dates.ts';
import { type FieldsOf, type KindEditor, NewKindItem, OpenedKindItem } from './kind-editor.tsx';
import {
  JOBS_ADMIN_API,
  jobsList,
  MAP_REGIONS_ADMIN_API,
  mapList,
  materialsList,
  SCHOOL_MATERIALS_ADMIN_API,
  TIMELINE_ADMIN_API,
  timelineList,
} from './kind-lists.tsx';

/**
 * The editors of rows shown in other pages' widgets (decision 171): a job listing (the jobs
 * widget lists it until its application period ends), a school material (the materials list
 * and the order form), a year of the history timeline and a button of the map of plants. Versions, drafts and publishing as for any item; no preview, as they
 * have no page of their own.
 */

/** Schema issues as the form's errors, by the API's field names. */
function issuesOf(error: { issues: { path: PropertyKey[]; message: string }[] }) {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    errors[['document', ...issue.path.map(String)].join('.')] ??= issue.message;
  }
  return errors;
}

// ---------------------------------------------------------------------------------------------
// Job listings
// ---------------------------------------------------------------------------------------------

interface JobForm {
  title: string;
  city: string;
  url: string;
  /** The last day to apply (`2026-03-02`), in Finland. */
  endDay: string;
}

export const jobKind: EditorKind = {
  api: JOBS_ADMIN_API,
  itemKey: 'job',
  listKey: 'jobs',
  idPrefix: 'job',
  presentText: 'admin.job.present',
  preview: false,
};

const jobEditor: KindEditor<JobDocument, JobForm> = {
  kind: jobKind,
  list: jobsList,
  newHeading: 'admin.job.newHeading',
  forbidden: 'admin.job.forbidden',
  notFound: 'admin.job.notFound',
  fieldTexts: 'admin.job.field',
  titleOf: (doc) => doc.title,
  formOf: (doc) => ({
    title: doc.title,
    city: doc.city,
    url: doc.url,
    endDay: finnishDay(doc.applicationPeriodEnd),
  }),
  documentOf: (form) => {
    const end = endOfFinnishDay(form.endDay);
    const parsed = jobDocumentSchema.safeParse({
      title: form.title,
      city: form.city,
      url: form.url.trim(),
      applicationPeriodEnd: end ?? '',
    });
    return parsed.success ? { document: parsed.data } : { errors: issuesOf(parsed.error) };
  },
};

const emptyJob = (): JobForm => ({ title: '', city: '', url: '', endDay: '' });

const JobFields: FieldsOf<JobForm> = ({ form, change }) => {
  const { t } = useT();
  return (
    <Section id="job-content" title={t('admin.job.content')}>
      <Field
        name="document.title"
        label={t('admin.job.field.title')}
        value={form.title}
        onChange={(title) => change({ title })}
      />
      <Field
        name="document.city"
        label={t('admin.job.field.city')}
        value={form.city}
        onChange={(city) => change({ city })}
      />
      <Field
        name="document.url"
        type="url"
        label={t('admin.job.field.url')}
        description={t('admin.kinds.linkHint')}
        value={form.url}
        onChange={(url) => change({ url })}
      />
      <DateField
        name="document.applicationPeriodEnd"
        label={t('admin.job.field.applicationPeriodEnd')}
        description={t('admin.job.endHint')}
        value={form.endDay}
        onChange={(endDay) => change({ endDay })}
      />
    </Section>
  );
};

export function JobEditorScreen() {
  const { id } = useParams();
  return id === 'new' ? (
    <NewKindItem spec={jobEditor} emptyForm={emptyJob} Fields={JobFields} />
  ) : (
    <OpenedKindItem spec={jobEditor} id={Number(id)} emptyForm={emptyJob} Fields={JobFields} />
  );
}

// ---------------------------------------------------------------------------------------------
// School materials
// ---------------------------------------------------------------------------------------------

interface MaterialForm {
  material: string;
  url: string;
  description: string;
  topic: string;
  sortOrder: string;
}

export const materialKind: EditorKind = {
  api: SCHOOL_MATERIALS_ADMIN_API,
  itemKey: 'school-material',
  listKey: 'school-materials',
  idPrefix: 'material',
  presentText: 'admin.material.present',
  preview: false,
};

const materialEditor: KindEditor<SchoolMaterialDocument, MaterialForm> = {
  kind: materialKind,
  list: materialsList,
  newHeading: 'admin.material.newHeading',
  forbidden: 'admin.material.forbidden',
  notFound: 'admin.material.notFound',
  fieldTexts: 'admin.material.field',
  titleOf: (doc) => doc.material,
  formOf: (doc) => ({ ...doc, sortOrder: String(doc.sortOrder) }),
  documentOf: (form) => {
    const order = form.sortOrder.trim() === '' ? 0 : Number(form.sortOrder.trim());
    const parsed = schoolMaterialDocumentSchema.safeParse({
      ...form,
      url: form.url.trim(),
      sortOrder: order,
    });
    return parsed.success ? { document: parsed.data } : { errors: issuesOf(parsed.error) };
  },
};

const emptyMaterial = (): MaterialForm => ({
  material: '',
  url: '',
  description: '',
  topic: '',
  sortOrder: '0',
});

const MaterialFields: FieldsOf<MaterialForm> = ({ form, change }) => {
  const { t } = useT();
  return (
    <Section id="material-content" title={t('admin.material.content')}>
      <Field
        name="document.material"
        label={t('admin.material.field.material')}
        value={form.material}
        onChange={(material) => change({ material })}
      />
      <Field
        name="document.url"
        type="url"
        label={t('admin.material.field.url')}
        description={t('admin.kinds.linkHint')}
        value={form.url}
        onChange={(url) => change({ url })}
      />
      <TextAreaField
        name="document.description"
        label={t('admin.material.field.description')}
        rows={3}
        value={form.description}
        onChange={(description) => change({ description })}
      />
      <Field
        name="document.topic"
        label={t('admin.material.field.topic')}
        value={form.topic}
        onChange={(topic) => change({ topic })}
      />
      <NumberField
        name="document.sortOrder"
        label={t('admin.material.field.sortOrder')}
        description={t('admin.material.sortHint')}
        value={form.sortOrder}
        onChange={(sortOrder) => change({ sortOrder })}
      />
    </Section>
  );
};

export function SchoolMaterialEditorScreen() {
  const { id } = useParams();
  return id === 'new' ? (
    <NewKindItem spec={materialEditor} emptyForm={emptyMaterial} Fields={MaterialFields} />
  ) : (
    <OpenedKindItem
      spec={materialEditor}
      id={Number(id)}
      emptyForm={emptyMaterial}
      Fields={MaterialFields}
    />
  );
}

/** A whole number as typed (`''` and anything else that is none: NaN, refused by the schema). */
const whole = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim()));

// ---------------------------------------------------------------------------------------------
// Timeline years
// ---------------------------------------------------------------------------------------------

interface TimelineForm {
  year: string;
  title: string;
  text: string;
  imageId: number | null;
}

export const timelineKind: EditorKind = {
  api: TIMELINE_ADMIN_API,
  itemKey: 'timeline-year',
  listKey: 'timeline-years',
  idPrefix: 'timeline',
  presentText: 'admin.timeline.present',
  preview: false,
};

const timelineEditor: KindEditor<TimelineYearDocument, TimelineForm> = {
  kind: timelineKind,
  list: timelineList,
  newHeading: 'admin.timeline.newHeading',
  forbidden: 'admin.timeline.forbidden',
  notFound: 'admin.timeline.notFound',
  fieldTexts: 'admin.timeline.field',
  titleOf: (doc) => `${doc.year}: ${doc.title}`,
  formOf: (doc) => ({ ...doc, year: String(doc.year) }),
  documentOf: (form) => {
    const parsed = timelineYearDocumentSchema.safeParse({ ...form, year: whole(form.year) });
    return parsed.success ? { document: parsed.data } : { errors: issuesOf(parsed.error) };
  },
};

const emptyYear = (): TimelineForm => ({ year: '', title: '', text: '', imageId: null });

const TimelineFields: FieldsOf<TimelineForm> = ({ form, change, scope }) => {
  const { t } = useT();
  return (
    <Section id="timeline-content" title={t('admin.timeline.content')}>
      <NumberField
        name="document.year"
        label={t('admin.timeline.field.year')}
        value={form.year}
        onChange={(year) => change({ year })}
      />
      <Field
        name="document.title"
        label={t('admin.timeline.field.title')}
        value={form.title}
        onChange={(title) => change({ title })}
      />
      <TextAreaField
        name="document.text"
        label={t('admin.timeline.field.text')}
        rows={4}
        value={form.text}
        onChange={(text) => change({ text })}
      />
      <ImageField
        scope={scope}
        name="document.imageId"
        label={t('admin.timeline.field.imageId')}
        imageId={form.imageId}
        onChange={(imageId) => change({ imageId })}
      />
    </Section>
  );
};

export function TimelineYearEditorScreen() {
  const { id } = useParams();
  return id === 'new' ? (
    <NewKindItem spec={timelineEditor} emptyForm={emptyYear} Fields={TimelineFields} />
  ) : (
    <OpenedKindItem
      spec={timelineEditor}
      id={Number(id)}
      emptyForm={emptyYear}
      Fields={TimelineFields}
    />
  );
}

// ---------------------------------------------------------------------------------------------
// Map buttons
// ---------------------------------------------------------------------------------------------

interface MapForm {
  number: string;
  buttonLabel: string;
  buttonRegion: string;
  buttonInfo: string;
}

export const mapKind: EditorKind = {
  api: MAP_REGIONS_ADMIN_API,
  itemKey: 'map-region',
  listKey: 'map-regions',
  idPrefix: 'map',
  presentText: 'admin.map.present',
  preview: false,
};

const mapEditor: KindEditor<MapRegionDocument, MapForm> = {
  kind: mapKind,
  list: mapList,
  newHeading: 'admin.map.newHeading',
  forbidden: 'admin.map.forbidden',
  notFound: 'admin.map.notFound',
  fieldTexts: 'admin.map.field',
  titleOf: (doc) => `${doc.number}. ${doc.buttonLabel}`,
  formOf: (doc) => ({ ...doc, number: String(doc.number) }),
  documentOf: (form) => {
    const parsed = mapRegionDocumentSchema.safeParse({ ...form, number: whole(form.number) });
    return parsed.success ? { document: parsed.data } : { errors: issuesOf(parsed.error) };
  },
};

const emptyButton = (): MapForm => ({
  number: '',
  buttonLabel: '',
  buttonRegion: '',
  buttonInfo: '',
});

const MapFields: FieldsOf<MapForm> = ({ form, change }) => {
  const { t } = useT();
  return (
    <Section id="map-content" title={t('admin.map.content')}>
      <NumberField
        name="document.number"
        label={t('admin.map.field.number')}
        description={t('admin.map.numberHint')}
        value={form.number}
        onChange={(number) => change({ number })}
      />
      <Field
        name="document.buttonLabel"
        label={t('admin.map.field.buttonLabel')}
        value={form.buttonLabel}
        onChange={(buttonLabel) => change({ buttonLabel })}
      />
      <Field
        name="document.buttonRegion"
        label={t('admin.map.field.buttonRegion')}
        value={form.buttonRegion}
        onChange={(buttonRegion) => change({ buttonRegion })}
      />
      <TextAreaField
        name="document.buttonInfo"
        label={t('admin.map.field.buttonInfo')}
        rows={3}
        value={form.buttonInfo}
        onChange={(buttonInfo) => change({ buttonInfo })}
      />
    </Section>
  );
};

export function MapRegionEditorScreen() {
  const { id } = useParams();
  return id === 'new' ? (
    <NewKindItem spec={mapEditor} emptyForm={emptyButton} Fields={MapFields} />
  ) : (
    <OpenedKindItem spec={mapEditor} id={Number(id)} emptyForm={emptyButton} Fields={MapFields} />
  );
}
