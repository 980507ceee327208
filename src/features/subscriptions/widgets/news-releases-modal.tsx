import { useEffect, useRef, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { z } from 'zod';
import { useLang, useT } from '../../../i18n/react.tsx';
import { getJson } from '../../forms/widgets/api.ts';
import { ErrorText, Star, useField } from '../../forms/widgets/field-base.tsx';
import formStyles from '../../forms/widgets/forms.module.css';
import {
  ErrorSummary,
  FormFrame,
  type Status,
  TextField,
  useSchemaForm,
} from '../../forms/widgets/kit.tsx';
import {
  CHOOSE_ONE_ERROR,
  emailSchema,
  NEWS_CATEGORIES_API,
  NEWS_SUBSCRIBE_API,
  type NewsCategory,
} from '../schemas.ts';
import {
  dismissal,
  postJson,
  Submit,
  SubscribeModal,
  styles,
  Thanks,
  useHashOpen,
} from './kit.tsx';

export const NEWS_DISMISSED = 'kattaus:newsreleases-dismissed';

const schema = z
  .object({
    email: emailSchema,
    informationTypes: z.array(z.string()),
    subscribeToUutiskirje: z.boolean(),
  })
  .refine((v) => v.informationTypes.length > 0 || v.subscribeToUutiskirje, {
    path: ['informationTypes'],
    message: CHOOSE_ONE_ERROR,
  });
type Values = z.infer<typeof schema>;

/** The categories and the newsletter as one group: 'Valitse vähintään yksi uutiskirje' (§5). */
function Choices(props: { categories: NewsCategory[] }) {
  const t = useT();
  const { register } = useFormContext();
  const { id, error } = useField('informationTypes', t('subscribe.news.legend'));
  return (
    <fieldset
      id={id}
      tabIndex={-1}
      className={formStyles.fieldset}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend className={formStyles.legend}>
        {t('subscribe.news.legend')}
        <Star required />
      </legend>
      <div className={styles.categories}>
        {props.categories.map((c) => (
          <label key={c.informationType} className={formStyles.option}>
            <input type="checkbox" value={c.informationType} {...register('informationTypes')} />
            {c.name}
          </label>
        ))}
        <label className={formStyles.option}>
          <input type="checkbox" {...register('subscribeToUutiskirje')} />
          {t('subscribe.news.uutiskirje')}
        </label>
      </div>
      <ErrorText id={`${id}-error`} error={error} />
    </fieldset>
  );
}

function NewsForm(props: { onDone: () => void }) {
  const t = useT();
  const lang = useLang();
  const [categories, setCategories] = useState<NewsCategory[] | 'error' | null>(null);
  const methods = useSchemaForm(schema, {
    email: '',
    informationTypes: [],
    subscribeToUutiskirje: false,
  });
  const [status, setStatus] = useState<Status>('idle');
  useEffect(() => {
    let current = true;
    getJson<NewsCategory[]>(`${NEWS_CATEGORIES_API}?language=${lang}`).then(
      (list) => current && setCategories(list),
      () => current && setCategories('error'),
    );
    return () => {
      current = false;
    };
  }, [lang]);
  const send = async (values: Values) => {
    setStatus('sending');
    const answer = await postJson(NEWS_SUBSCRIBE_API, {
      email: values.email,
      recaptchaToken: '',
      informationTypes: values.informationTypes,
      subscribeToUutiskirje: values.subscribeToUutiskirje,
    });
    if (answer.ok) {
      setStatus('success');
      props.onDone();
      return;
    }
    for (const [name, key] of Object.entries(answer.errors ?? {})) {
      methods.setError(name as never, { type: 'server', message: key });
    }
    setStatus('error');
  };
  if (categories === 'error') return <p role="alert">{t('subscribe.news.loadFailed')}</p>;
  return (
    <FormFrame
      methods={methods}
      onSubmit={(event) => {
        event.preventDefault();
        void methods.handleSubmit((values) => send(values as Values))(event);
      }}
    >
      <TextField
        name="email"
        type="email"
        label={t('subscribe.field.email')}
        autoComplete="email"
        maxLength={254}
      />
      <Choices categories={categories ?? []} />
      <p>{t('subscribe.consent.newsReleases')}</p>
      <ErrorSummary heading={t('subscribe.error.summary')} />
      <Submit status={status} text={t('subscribe.news.submit')} />
    </FormFrame>
  );
}

/**
 * The news-release subscription modal (spec §2): on the hash `hash` (rules as the newsletter
 * modal's) or by its button; the categories come from `GET /api/cision/subscribe/categories`.
 */
export function NewsReleasesModal(props: { hash: string }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const byHash = useRef(false);
  useHashOpen(props.hash, NEWS_DISMISSED, () => {
    byHash.current = true;
    setDone(false);
    setOpen(true);
  });
  const close = () => {
    dismissal.set(NEWS_DISMISSED);
    setOpen(false);
    if (window.location.hash.slice(1) === props.hash) {
      window.history.replaceState(null, '', window.location.pathname + window.location.search);
    }
    if (byHash.current) {
      byHash.current = false;
      requestAnimationFrame(() => button.current?.focus());
    }
  };
  return (
    <div className={`container ${styles.band}`}>
      <button
        ref={button}
        type="button"
        className={styles.open}
        aria-haspopup="dialog"
        onClick={() => {
          byHash.current = false;
          setDone(false);
          setOpen(true);
        }}
      >
        {t('subscribe.news.open')}
      </button>
      <SubscribeModal isOpen={open} onClose={close} title={t('subscribe.news.title')}>
        {done ? (
          <Thanks
            title={t('subscribe.news.thanksTitle')}
            text={t('subscribe.newsletter.thanks')}
            onClose={close}
          />
        ) : (
          <NewsForm onDone={() => setDone(true)} />
        )}
      </SubscribeModal>
    </div>
  );
}
