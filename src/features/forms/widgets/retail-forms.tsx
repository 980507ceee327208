import { useId, useState } from 'react';
import type { FieldValues } from 'react-hook-form';
import { useWatch } from 'react-hook-form';
import { useT } from '../../../i18n/react.tsx';
import { complaintSchema, feedbackSchema, fileRules } from '../schemas.ts';
import { ConsentDialog } from './consent-dialog.tsx';
import { AddressFields, EmailField, NameFields, PhoneField } from './contact-fields.tsx';
import {
  Checkbox,
  ContactMethod,
  DateField,
  FileField,
  FormShell,
  ProductField,
  styles,
  TextArea,
  TextField,
  useFormSender,
  useSchemaForm,
} from './kit.tsx';

export interface RetailFormProps {
  /** The meat shop's fixed, read-only place of purchase. */
  fixedPlaceOfPurchase?: string;
  successPage?: string;
  /** Set by the retail contact page, which has the heading. */
  embedded?: boolean;
}

const person = {
  Firstname: '',
  Lastname: '',
  StreetAddress: '',
  PostalCode: '',
  City: '',
  Phone: '',
  Email: '',
  ContactByEmail: false,
  ContactByPhone: false,
  NoContact: false,
  HealthDataProcessingConsent: false,
  Message: '',
  ProductId: 0,
  ProductName: '',
};

/** The complaint (§2.2) or the feedback form (§2.3): the same person, contact and consent. */
function RetailForm(props: RetailFormProps & { variant: 'complaint' | 'feedback' }) {
  const t = useT();
  const complaint = props.variant === 'complaint';
  const methods = useSchemaForm(
    complaint ? complaintSchema : feedbackSchema,
    complaint
      ? {
          Data: {
            ...person,
            BatchNumber: '',
            ExpirationDate: '',
            PlaceOfPurchase: props.fixedPlaceOfPurchase ?? '',
          },
          Files: [],
          MTCaptchaToken: '',
        }
      : { Data: person, Files: null, MTCaptchaToken: '' },
  );
  const sender = useFormSender(props.variant, methods, { successPage: props.successPage });
  const [asked, setAsked] = useState(false);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [byEmail, byPhone] = useWatch({
    control: methods.control,
    name: ['Data.ContactByEmail', 'Data.ContactByPhone'],
  }) as [boolean, boolean];

  const onValid = (values: FieldValues) => {
    if (!values.Data.HealthDataProcessingConsent && !asked) {
      setAsked(true);
      setDialogOpen(true);
      return;
    }
    return sender.send(values);
  };

  return (
    <FormShell
      sender={sender}
      title={t(`form.${props.variant}.title`)}
      headingLevel={props.embedded ? 'h3' : 'h2'}
      summaryHeading={t(complaint ? 'form.summary.complaint' : 'form.summary.default')}
      onValid={onValid}
    >
      <ProductField
        label={t('form.field.product')}
        required={complaint}
        idName="Data.ProductId"
        titleName="Data.ProductName"
      />
      <TextArea name="Data.Message" label={t('form.field.message')} />
      {complaint ? (
        <>
          <DateField name="Data.ExpirationDate" label={t('form.field.expiryDate')} />
          <TextField
            name="Data.PlaceOfPurchase"
            label={t('form.field.placeOfPurchase')}
            readOnly={Boolean(props.fixedPlaceOfPurchase)}
          />
          <TextField name="Data.BatchNumber" label={t('form.field.batchNumber')} required={false} />
          <FileField
            name="Files"
            label={t('form.field.images')}
            rule={fileRules.complaint}
            typesLabel="JPEG, PNG"
          />
        </>
      ) : null}
      <NameFields first="Data.Firstname" last="Data.Lastname" />
      <AddressFields prefix="Data" />
      <ContactMethod prefix="Data" />
      <EmailField name="Data.Email" required={byEmail} />
      <PhoneField name="Data.Phone" required={byPhone} />
      <Checkbox name="Data.HealthDataProcessingConsent" label={t('form.consent.label')} />
      <ConsentDialog open={dialogOpen} onClose={() => setDialogOpen(false)} />
    </FormShell>
  );
}

export function ComplaintForm(props: RetailFormProps) {
  return <RetailForm {...props} variant="complaint" />;
}

export function FeedbackForm(props: RetailFormProps) {
  return <RetailForm {...props} variant="feedback" />;
}

/**
 * The retail contact page (§2.1): 'send us a message', a description, and the choice between a
 * defective product (the complaint form, the default) and another matter (the feedback form).
 */
export function RetailContact(props: RetailFormProps & { description?: string }) {
  const t = useT();
  const [choice, setChoice] = useState<'complaint' | 'feedback'>('complaint');
  const id = useId().replace(/[^\w-]/g, '');
  const options = [
    { value: 'complaint' as const, label: t('form.retail-contact.defective') },
    { value: 'feedback' as const, label: t('form.retail-contact.other') },
  ];
  return (
    <section className={styles.form} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.heading}>
        {t('form.retail-contact.title')}
      </h2>
      <p>{props.description ?? t('form.retail-contact.description')}</p>
      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>{t('form.retail-contact.choice')}</legend>
        <div className={styles.switch}>
          {options.map((option) => (
            <label key={option.value}>
              <input
                type="radio"
                name={`${id}-choice`}
                value={option.value}
                checked={choice === option.value}
                onChange={() => setChoice(option.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') {
                    event.preventDefault();
                    setChoice(option.value);
                  }
                }}
              />
              {option.label}
            </label>
          ))}
        </div>
      </fieldset>
      {choice === 'complaint' ? (
        <ComplaintForm key="complaint" {...props} embedded />
      ) : (
        <FeedbackForm key="feedback" {...props} embedded />
      )}
    </section>
  );
}
