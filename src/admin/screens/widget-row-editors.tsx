import { useParams } from 'react-router';
import {
  type JobDocument,
  jobDocumentSchema,
  type SchoolMaterialDocument,
  schoolMaterialDocumentSchema,
} from '../../features/content/admin.ts';
import { DateField } from '../date-field.tsx';
import { useT } from '../i18n.tsx';
import { Field, NumberField, Section, TextAreaField } from '../ui.tsx';
import type { EditorKind } from './content-editor.tsx';
import { endOfFinnishDay, finnishDay } from './job-dates.ts';
import { type FieldsOf, type KindEditor, NewKindItem, OpenedKindItem } from './kind-editor.tsx';
import {
  JOBS_ADMIN_API,
  jobsList,
  materialsList,
  SCHOOL_MATERIALS_ADMIN_API,
} from './kind-lists.tsx';

/**
 * The editors of rows shown in other pages' widgets (decision 171): a job listing (the jobs
 * widget lists it until its application period ends) and a school material (the materials list
 * and the order form). Versions, drafts and publishing as for any item; no preview, as they
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
