import { useEffect, useId, useState } from 'react';
import { get, useFormContext } from 'react-hook-form';
import { useLang, useT } from '../../../i18n/react.tsx';
import type { MessageKey } from '../../../i18n/translate.ts';
import { SCHOOL_MATERIALS_PATH } from '../forms.ts';
import { schoolMaterialSchema } from '../schemas.ts';
import { getJson } from './api.ts';
import {
  ErrorSummary,
  FormFrame,
  SubmitRow,
  SuccessText,
  styles,
  TextArea,
  TextField,
  useFieldId,
  useFormSender,
  useSchemaForm,
} from './kit.tsx';

interface Material {
  material: string;
  url: string;
}

function Materials(props: { materials: Material[] | undefined; legend: string }) {
  const t = useT();
  const { register, formState } = useFormContext();
  const id = useFieldId('Data.Materials');
  const error = (get(formState.errors, 'Data.Materials') as { message?: string } | undefined)
    ?.message as MessageKey | undefined;
  return (
    <fieldset
      id={id}
      tabIndex={-1}
      className={styles.fieldset}
      aria-describedby={error ? `${id}-error` : undefined}
      aria-busy={props.materials ? undefined : true}
    >
      <legend className={styles.legend}>
        {props.legend}
        <span className={styles.star} aria-hidden="true">
          {' '}
          *
        </span>
      </legend>
      {props.materials === undefined ? (
        <p className={styles.hint}>{t('form.product.loading')}</p>
      ) : (
        props.materials.map((m) => (
          <label key={m.material} className={styles.option}>
            <input type="checkbox" value={m.material} {...register('Data.Materials')} />
            {m.material}
          </label>
        ))
      )}
      {error ? (
        <p id={`${id}-error`} className={styles.error}>
          {t(error)}
        </p>
      ) : null}
    </fieldset>
  );
}

/** School material order (§2.11): the materials come from the site's school material list. */
export function SchoolMaterialForm(props: { successPage?: string }) {
  const t = useT();
  const lang = useLang();
  const [materials, setMaterials] = useState<Material[]>();
  const methods = useSchemaForm(schoolMaterialSchema, {
    Data: {
      FirstName: '',
      LastName: '',
      School: '',
      Region: '',
      Email: '',
      Materials: [],
      Links: [],
      Message: '',
      Subject: t('form.school-material.subject'),
    },
    MTCaptchaToken: '',
  });
  const sender = useFormSender('school-material', methods, { successPage: props.successPage });
  const headingId = `${useId().replace(/[^\w-]/g, '')}-heading`;
  useEffect(() => {
    getJson<Material[]>(`${SCHOOL_MATERIALS_PATH}?language=${lang}`)
      .then(setMaterials)
      .catch(() => setMaterials([]));
  }, [lang]);
  if (sender.status === 'success') {
    return <SuccessText text={t('form.school-material.success')} />;
  }
  return (
    <FormFrame
      methods={methods}
      labelledBy={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        if (!sender.hasToken()) return;
        void methods.handleSubmit((values) => {
          const chosen = new Set<string>(values.Data.Materials ?? []);
          const links = (materials ?? []).filter((m) => chosen.has(m.material)).map((m) => m.url);
          return sender.send({ ...values, Data: { ...values.Data, Links: links } });
        })(event);
      }}
    >
      <h2 id={headingId} className={styles.heading}>
        {t('form.school-material.title')}
      </h2>
      <TextField
        name="Data.FirstName"
        label={t('form.field.firstName')}
        autoComplete="given-name"
      />
      <TextField name="Data.LastName" label={t('form.field.lastName')} autoComplete="family-name" />
      <TextField name="Data.School" label={t('form.field.school')} required={false} />
      <TextField name="Data.Region" label={t('form.field.region')} required={false} />
      <TextField
        name="Data.Email"
        label={t('form.field.email')}
        type="email"
        autoComplete="email"
      />
      <Materials materials={materials} legend={t('form.field.materials')} />
      <TextArea name="Data.Message" label={t('form.field.message')} required={false} />
      <ErrorSummary
        heading={t('form.summary.default')}
        fields={[
          { name: 'Data.FirstName', label: t('form.field.firstName') },
          { name: 'Data.LastName', label: t('form.field.lastName') },
          { name: 'Data.Email', label: t('form.field.email') },
          { name: 'Data.Materials', label: t('form.field.materials') },
          { name: 'Data.Message', label: t('form.field.message') },
        ]}
      />
      {sender.captchaElement}
      <SubmitRow status={sender.status} errorText={t(sender.errorKey ?? 'form.error.school')} />
    </FormFrame>
  );
}
