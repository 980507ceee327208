import { useEffect, useState } from 'react';
import { z } from 'zod';
import { useLang, useT } from '../../../i18n/react.tsx';
import {
  CHOOSE_ONE_ERROR,
  emailSchema,
  NEWS_CATEGORIES_API,
  NEWS_SUBSCRIBE_API,
  type NewsCategory,
} from '../schemas.ts';
import {
  CheckGroup,
  EmailField,
  ErrorSummary,
  Frame,
  type Status,
  Submit,
  useSubscribeForm,
} from './fields.tsx';
import { styles, useHashModal } from './kit.tsx';
import { SubscribeModal, Thanks } from './modal.tsx';
import { postJson } from './post-json.ts';

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

function NewsForm(props: { onDone: () => void }) {
  const t = useT();
  const lang = useLang();
  const [categories, setCategories] = useState<NewsCategory[] | 'error' | null>(null);
  const methods = useSubscribeForm(schema, {
    email: '',
    informationTypes: [],
    subscribeToUutiskirje: false,
  });
  const [status, setStatus] = useState<Status>('idle');
  useEffect(() => {
    let current = true;
    fetch(`${NEWS_CATEGORIES_API}?language=${lang}`, { credentials: 'same-origin' })
      .then((response) => {
        if (!response.ok) throw new Error(String(response.status));
        return response.json() as Promise<NewsCategory[]>;
      })
      .then(
        (list) => current && setCategories(list),
        () => current && setCategories('error'),
      );
    return () => {
      current = false;
    };
  }, [lang]);
  const send = async (values: Values) => {
    setStatus('sending');
    const answer = await postJson(NEWS_SUBSCRIBE_API, lang, {
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
    <Frame methods={methods} onValid={(values) => send(values as Values)}>
      <EmailField />
      <CheckGroup
        name="informationTypes"
        legend={t('subscribe.news.legend')}
        options={(categories ?? []).map((c) => ({ value: c.informationType, label: c.name }))}
        also={{ name: 'subscribeToUutiskirje', label: t('subscribe.news.uutiskirje') }}
      />
      <p>{t('subscribe.consent.newsReleases')}</p>
      <ErrorSummary />
      <Submit status={status} text={t('subscribe.news.submit')} />
    </Frame>
  );
}

/**
 * The news-release subscription modal (spec §2): on the hash `hash` (rules as the newsletter
 * modal's) or by its button; the categories come from `GET /api/cision/subscribe/categories`.
 */
export function NewsReleasesModal(props: { hash: string }) {
  const t = useT();
  const modal = useHashModal(props.hash, NEWS_DISMISSED);
  return (
    <div className={`container ${styles.band}`}>
      <button {...modal.opener}>{t('subscribe.news.open')}</button>
      <SubscribeModal isOpen={modal.open} onClose={modal.close} title={t('subscribe.news.title')}>
        {modal.done ? (
          <Thanks
            title={t('subscribe.news.thanksTitle')}
            text={t('subscribe.newsletter.thanks')}
            onClose={modal.close}
          />
        ) : (
          <NewsForm onDone={modal.finished} />
        )}
      </SubscribeModal>
    </div>
  );
}
