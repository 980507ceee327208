import { useEffect, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { useLang, useT } from '../../../i18n/react.tsx';
import { SCHOOL_MATERIALS_PATH } from '../forms.ts';
import { schoolMaterialSchema } from '../schemas.ts';
import { getJson } from './api.ts';
import { EmailField, NameFields } from './contact-fields.tsx';
import { ErrorText, Star, useField } from './field-base.tsx';
import { FormShell, styles, TextArea, TextField, useFormSender, useSchemaForm } from './kit.tsx';

interface Material {
  material: string;
  url: string;
}

function Materials(props: { materials: Material[] | undefined; legend: string }) {
  const t = useT();
  const { register } = useFormContext();
  const { id, error } = useField('Data.Materials', props.legend);
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
        <Star required />
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
      <ErrorText id={`${id}-error`} error={error} />
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
  useEffect(() => {
    getJson<Material[]>(`${SCHOOL_MATERIALS_PATH}?language=${lang}`)
      .then(setMaterials)
      .catch(() => setMaterials([]));
  }, [lang]);
  return (
    <FormShell
      sender={sender}
      title={t('form.school-material.title')}
      failureText={t('form.error.school')}
      successText={t('form.school-material.success')}
      onValid={(values) => {
        const chosen = new Set<string>(values.Data.Materials ?? []);
        const links = (materials ?? []).filter((m) => chosen.has(m.material)).map((m) => m.url);
        return sender.send({ ...values, Data: { ...values.Data, Links: links } });
      }}
    >
      <NameFields first="Data.FirstName" last="Data.LastName" />
      <TextField name="Data.School" label={t('form.field.school')} required={false} />
      <TextField name="Data.Region" label={t('form.field.region')} required={false} />
      <EmailField name="Data.Email" />
      <Materials materials={materials} legend={t('form.field.materials')} />
      <TextArea name="Data.Message" label={t('form.field.message')} required={false} />
    </FormShell>
  );
}
