import type { z } from 'zod';
import { useT } from '../../../i18n/react.tsx';
import { fileRules, promotionalPhotoFormSchema, promotionalPhotoPayload } from '../schemas.ts';
import { emptyPerson, PersonFields } from './contact-fields.tsx';
import { Checkbox, FileField, FormShell, PrivacyLink, RadioGroup, useFilesForm } from './kit.tsx';

/**
 * The photo raffle (§2.6): contact details, method of contact, one image, the rules. The rules
 * box must be ticked; the payload leaves it out, as the spec's does.
 */
export function PromotionalPhotoForm(props: { successPage?: string; privacyUrl?: string }) {
  const t = useT();
  const { sender } = useFilesForm(
    'promotional-photo',
    promotionalPhotoFormSchema,
    { ...emptyPerson, MethodOfContact: 'email', AcceptRules: false },
    { successPage: props.successPage },
  );
  return (
    <FormShell
      sender={sender}
      title={t('form.promotional-photo.title')}
      onValid={(values) =>
        sender.send(promotionalPhotoPayload(values as z.output<typeof promotionalPhotoFormSchema>))
      }
    >
      <PersonFields prefix="Data" />
      <RadioGroup
        name="Data.MethodOfContact"
        legend={t('form.field.methodOfContact')}
        options={[
          { value: 'email', label: t('form.promotional-photo.method.email') },
          { value: 'phone', label: t('form.promotional-photo.method.phone') },
        ]}
      />
      <FileField
        name="Files"
        label={t('form.field.photo')}
        rule={fileRules['promotional-photo']}
        typesLabel="JPEG, PNG, GIF, WebP, HEIC"
      />
      <Checkbox name="Data.AcceptRules" label={t('form.field.rules')} required />
      <PrivacyLink href={props.privacyUrl} />
    </FormShell>
  );
}
