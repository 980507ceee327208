import { lazy, type ReactNode, Suspense, useCallback, useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { Link, Navigate, NavLink, Route, Routes, useLocation, useNavigate } from 'react-router';
import type { Me, Permission } from '../features/staff/index.ts';
import styles from './admin.module.css';
import { post } from './api.ts';
import { AdminI18n, type AdminLang, browserLang, rememberLang, useT } from './i18n.tsx';
import { ReauthProvider } from './reauth.tsx';
import { AuditScreen } from './screens/audit.tsx';
import { EnrolScreen } from './screens/enrol.tsx';
import { HomeScreen } from './screens/home.tsx';
import { InboxScreen } from './screens/inbox.tsx';
import { LoginScreen } from './screens/login.tsx';
import { ProfileScreen } from './screens/profile.tsx';
import { ResetScreen } from './screens/reset.tsx';
import { RolesScreen } from './screens/roles.tsx';
import { StaffScreen } from './screens/staff.tsx';
import { StaffDetailScreen } from './screens/staff-detail.tsx';
import { SubmissionScreen } from './screens/submission.tsx';
import { signOutNotice, useMe, useSetMe } from './session.tsx';

// The shop's screens (and their date picker) are a chunk of their own, loaded when first opened:
// most staff never open them.
const OrdersScreen = lazy(() =>
  import('./screens/orders.tsx').then((m) => ({ default: m.OrdersScreen })),
);
const OrderScreen = lazy(() =>
  import('./screens/order.tsx').then((m) => ({ default: m.OrderScreen })),
);
const PickListScreen = lazy(() =>
  import('./screens/pick-list.tsx').then((m) => ({ default: m.PickListScreen })),
);
const DeliveryScreen = lazy(() =>
  import('./screens/delivery.tsx').then((m) => ({ default: m.DeliveryScreen })),
);
const CatalogueScreen = lazy(() =>
  import('./screens/catalogue.tsx').then((m) => ({ default: m.CatalogueScreen })),
);
const CouponsScreen = lazy(() =>
  import('./screens/coupons.tsx').then((m) => ({ default: m.CouponsScreen })),
);
const GiftCardsScreen = lazy(() =>
  import('./screens/gift-cards.tsx').then((m) => ({ default: m.GiftCardsScreen })),
);
const CustomersScreen = lazy(() =>
  import('./screens/customers.tsx').then((m) => ({ default: m.CustomersScreen })),
);
const CustomerScreen = lazy(() =>
  import('./screens/customer.tsx').then((m) => ({ default: m.CustomerScreen })),
);
const ReportScreen = lazy(() =>
  import('./screens/report.tsx').then((m) => ({ default: m.ReportScreen })),
);
// The recipe editor is a chunk of its own too: only editors open it.
const RecipesScreen = lazy(() =>
  import('./screens/recipes.tsx').then((m) => ({ default: m.RecipesScreen })),
);
const RecipeEditorScreen = lazy(() =>
  import('./screens/recipe-editor.tsx').then((m) => ({ default: m.RecipeEditorScreen })),
);
// The pages' tree and editor likewise (the editor brings TipTap: only editors load it).
const PagesScreen = lazy(() =>
  import('./screens/pages.tsx').then((m) => ({ default: m.PagesScreen })),
);
const NewsEditorScreen = lazy(() =>
  import('./screens/news-editor.tsx').then((m) => ({ default: m.NewsEditorScreen })),
);
const PageEditorScreen = lazy(() =>
  import('./screens/page-editor.tsx').then((m) => ({ default: m.PageEditorScreen })),
);
// The image library likewise.
const MediaScreen = lazy(() =>
  import('./screens/media.tsx').then((m) => ({ default: m.MediaScreen })),
);
const MediaImageScreen = lazy(() =>
  import('./screens/media.tsx').then((m) => ({ default: m.MediaImageScreen })),
);
// Products, job listings and school materials: their lists, and their editors (decision 171).
const ProductsScreen = lazy(() =>
  import('./screens/kind-lists.tsx').then((m) => ({ default: m.ProductsScreen })),
);
const JobsScreen = lazy(() =>
  import('./screens/kind-lists.tsx').then((m) => ({ default: m.JobsScreen })),
);
const SchoolMaterialsScreen = lazy(() =>
  import('./screens/kind-lists.tsx').then((m) => ({ default: m.SchoolMaterialsScreen })),
);
const ProductEditorScreen = lazy(() =>
  import('./screens/product-editor.tsx').then((m) => ({ default: m.ProductEditorScreen })),
);
const JobEditorScreen = lazy(() =>
  import('./screens/widget-row-editors.tsx').then((m) => ({ default: m.JobEditorScreen })),
);
const SchoolMaterialEditorScreen = lazy(() =>
  import('./screens/widget-row-editors.tsx').then((m) => ({
    default: m.SchoolMaterialEditorScreen,
  })),
);
const TimelineScreen = lazy(() =>
  import('./screens/kind-lists.tsx').then((m) => ({ default: m.TimelineScreen })),
);
const MapRegionsScreen = lazy(() =>
  import('./screens/kind-lists.tsx').then((m) => ({ default: m.MapRegionsScreen })),
);
const TimelineYearEditorScreen = lazy(() =>
  import('./screens/widget-row-editors.tsx').then((m) => ({
    default: m.TimelineYearEditorScreen,
  })),
);
const MapRegionEditorScreen = lazy(() =>
  import('./screens/widget-row-editors.tsx').then((m) => ({ default: m.MapRegionEditorScreen })),
);
const ReviewsScreen = lazy(() =>
  import('./screens/reviews.tsx').then((m) => ({ default: m.ReviewsScreen })),
);
// The marketing lists' and the news releases' screens: a chunk each, loaded when first opened.
const SubscribersScreen = lazy(() =>
  import('./screens/subscribers.tsx').then((m) => ({ default: m.SubscribersScreen })),
);
const CampaignsScreen = lazy(() =>
  import('./screens/campaigns.tsx').then((m) => ({ default: m.CampaignsScreen })),
);
const CampaignScreen = lazy(() =>
  import('./screens/campaigns.tsx').then((m) => ({ default: m.CampaignScreen })),
);
const NewsScreen = lazy(() =>
  import('./screens/news.tsx').then((m) => ({ default: m.NewsScreen })),
);
// Opened by the data-protection officer alone: a chunk of its own.
const PersonalDataScreen = lazy(() =>
  import('./screens/personal-data.tsx').then((m) => ({ default: m.PersonalDataScreen })),
);
// Site settings (the forms' recipients and success pages): a chunk of their own.
const FormSettingsScreen = lazy(() =>
  import('./screens/form-settings.tsx').then((m) => ({ default: m.FormSettingsScreen })),
);
const SynonymsScreen = lazy(() =>
  import('./screens/synonyms.tsx').then((m) => ({ default: m.SynonymsScreen })),
);

/** The back office: who is signed in decides the language, the menu and what opens. */
export function AdminApp() {
  const me = useMe();
  const [chosen, setChosen] = useState<AdminLang>(browserLang);
  const choose = useCallback((lang: AdminLang) => {
    rememberLang(lang);
    setChosen(lang);
  }, []);
  const lang: AdminLang = me.data?.lang ?? chosen;
  useEffect(() => {
    if (me.data) rememberLang(me.data.lang);
  }, [me.data]);
  return (
    <AdminI18n lang={lang} choose={choose}>
      <ReauthProvider>
        {me.isPending ? <Loading /> : me.data ? <SignedIn me={me.data} /> : <SignedOut />}
      </ReauthProvider>
    </AdminI18n>
  );
}

function Loading() {
  const { t } = useT();
  return <p className={styles.loading}>{t('admin.loading')}</p>;
}

function SignedOut() {
  const location = useLocation();
  return (
    <div className={styles.outside}>
      <main id="main" className={styles.narrow}>
        <Routes>
          <Route path="/login" element={<LoginScreen />} />
          {/* A new link (another fragment) is a new page: nothing of the last one stays. */}
          <Route path="/enrol" element={<EnrolScreen key={location.hash} />} />
          <Route path="/reset" element={<ResetScreen key={location.hash} />} />
          <Route
            path="*"
            element={<Navigate to="/login" replace state={{ from: location.pathname }} />}
          />
        </Routes>
      </main>
    </div>
  );
}

const can = (me: Me, permission: Permission) => me.permissions.includes(permission);
/** The search's synonyms serve every site of a language: only an every-site grant reaches them. */
const canEditSynonyms = (me: Me) =>
  me.grants.some((g) => g.sites === null && g.permissions.includes('search.synonyms'));

function Need({
  me,
  permission,
  children,
}: {
  me: Me;
  permission: Permission;
  children: ReactNode;
}) {
  const { t } = useT();
  return can(me, permission) ? children : <p role="alert">{t('admin.error.forbidden')}</p>;
}

/**
 * A link of a menu: where, its text, whether the staff member may go there, and whether it
 * stands for a part of the app (current on any of that part's screens).
 */
type MenuLink = [to: string, label: string, shown: boolean, part?: boolean];

/** Whether `pathname` is `to` or under it. */
const under = (pathname: string, to: string) => pathname === to || pathname.startsWith(`${to}/`);

/** The menus the staff member's permissions allow, and which part's own menu is open. */
function useMenus(me: Me) {
  const { t } = useT();
  const location = useLocation();
  // The shop's screens are one entry of the menu, and a menu of their own under it while one is
  // open: the menu stays one row wide on a desktop and a few lines on a phone.
  const shopLinks = (
    [
      ['/orders', t('admin.nav.orders'), can(me, 'orders.read')],
      ['/pick-list', t('admin.nav.pickList'), can(me, 'orders.read')],
      ['/delivery', t('admin.nav.delivery'), can(me, 'shop.manage')],
      ['/catalogue', t('admin.nav.catalogue'), can(me, 'shop.manage')],
      ['/reviews', t('admin.nav.reviews'), can(me, 'reviews.moderate')],
      ['/coupons', t('admin.nav.coupons'), can(me, 'shop.manage')],
      ['/gift-cards', t('admin.nav.giftCards'), can(me, 'shop.manage')],
      ['/customers', t('admin.nav.customers'), can(me, 'customers.read')],
      ['/report', t('admin.nav.report'), can(me, 'orders.read')],
    ] satisfies MenuLink[]
  ).filter(([, , shown]) => shown);
  // The marketing lists likewise: subscribers and campaigns under one entry.
  const marketingLinks = (
    [
      ['/subscribers', t('admin.nav.subscribers'), can(me, 'subscribers.read')],
      ['/campaigns', t('admin.nav.campaigns'), can(me, 'subscribers.read')],
    ] satisfies MenuLink[]
  ).filter(([, , shown]) => shown);
  const inShop = shopLinks.some(([to]) => under(location.pathname, to));
  const inMarketing = marketingLinks.some(([to]) => under(location.pathname, to));
  // The content's screens likewise: pages and recipes.
  const contentLinks = (
    [
      ['/content', t('admin.nav.pages'), can(me, 'content.edit')],
      ['/content/recipes', t('admin.nav.recipes'), can(me, 'content.edit')],
      ['/content/media', t('admin.nav.media'), can(me, 'content.edit')],
      ['/content/products', t('admin.nav.products'), can(me, 'content.edit')],
      ['/content/jobs', t('admin.nav.jobs'), can(me, 'content.edit')],
      ['/content/school-materials', t('admin.nav.materials'), can(me, 'content.edit')],
      ['/content/timeline', t('admin.nav.timeline'), can(me, 'content.edit')],
      ['/content/map', t('admin.nav.map'), can(me, 'content.edit')],
    ] satisfies MenuLink[]
  ).filter(([, , shown]) => shown);
  const inContent = under(location.pathname, '/content');
  // Site settings staff change (decision 170): the forms' recipients and success pages so far.
  const settingsLinks = (
    [
      ['/settings/forms', t('admin.nav.formSettings'), can(me, 'forms.settings')],
    ] satisfies MenuLink[]
  ).filter(([, , shown]) => shown);
  const inSettings = under(location.pathname, '/settings');
  const part = inShop
    ? { links: shopLinks, label: t('admin.nav.shopLabel'), entry: t('admin.nav.shop') }
    : inMarketing
      ? {
          links: marketingLinks,
          label: t('admin.nav.marketingLabel'),
          entry: t('admin.nav.marketing'),
        }
      : inContent
        ? { links: contentLinks, label: t('admin.nav.contentLabel'), entry: t('admin.nav.content') }
        : inSettings
          ? {
              links: settingsLinks,
              label: t('admin.nav.settingsLabel'),
              entry: t('admin.nav.settings'),
            }
          : null;
  const links = (
    [
      ['/', t('admin.nav.home'), true],
      ['/inbox', t('admin.nav.inbox'), can(me, 'submissions.read')],
      [shopLinks[0]?.[0] ?? '/orders', t('admin.nav.shop'), shopLinks.length > 0, true],
      [
        marketingLinks[0]?.[0] ?? '/subscribers',
        t('admin.nav.marketing'),
        marketingLinks.length > 0,
        true,
      ],
      ['/content', t('admin.nav.content'), can(me, 'content.edit'), true],
      ['/news', t('admin.nav.news'), can(me, 'content.publish')],
      ['/synonyms', t('admin.nav.synonyms'), canEditSynonyms(me)],
      [
        settingsLinks[0]?.[0] ?? '/settings/forms',
        t('admin.nav.settings'),
        settingsLinks.length > 0,
        true,
      ],
      ['/staff', t('admin.nav.staff'), can(me, 'staff.manage')],
      ['/roles', t('admin.nav.roles'), can(me, 'staff.manage')],
      ['/audit', t('admin.nav.audit'), can(me, 'audit.read')],
      ['/personal-data', t('admin.nav.personalData'), can(me, 'personal-data.export')],
      ['/profile', t('admin.nav.profile'), true],
    ] satisfies MenuLink[]
  ).filter(([, , shown]) => shown);
  return { links, part };
}

function SignedIn({ me }: { me: Me }) {
  const { t } = useT();
  const { links, part } = useMenus(me);
  return (
    <div className={styles.shell}>
      <a href="#main" className={styles.skip}>
        {t('admin.skipToContent')}
      </a>
      <header className={styles.header}>
        <span className={styles.brand}>Kattaus</span>
        <MainMenu links={links} current={part?.entry ?? null} />
        <SignOut />
      </header>
      {part ? <SubMenu label={part.label} links={part.links} /> : null}
      <main id="main" tabIndex={-1} className={styles.main}>
        <Suspense fallback={<Loading />}>
          <Screens me={me} />
        </Suspense>
      </main>
    </div>
  );
}

/** The menu of a part of the app (the shop's, the marketing lists', the content's screens). */
function SubMenu({ label, links }: { label: string; links: MenuLink[] }) {
  const { pathname } = useLocation();
  // The pages' editor is under the pages' tree (`/content`), the recipes' under theirs.
  const inPages = under(pathname, '/content/pages');
  return (
    <nav aria-label={label} className={styles.subNav}>
      <ul>
        {links.map(([to, text]) => (
          <li key={to}>
            <NavLink to={to} end={to === '/content' && !inPages} className={styles.subNavLink}>
              {text}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The main menu; a part's entry is current on any of that part's screens. */
function MainMenu({ links, current }: { links: MenuLink[]; current: string | null }) {
  const { t } = useT();
  return (
    <nav aria-label={t('admin.nav.label')} className={styles.nav}>
      <ul>
        {links.map(([to, label, , part]) =>
          part ? (
            <li key={label}>
              <Link
                to={to}
                className={styles.navLink}
                aria-current={current === label ? 'true' : undefined}
              >
                {label}
              </Link>
            </li>
          ) : (
            <li key={to}>
              <NavLink to={to} end={to === '/'} className={styles.navLink}>
                {label}
              </NavLink>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}

function SignOut() {
  const { t } = useT();
  const navigate = useNavigate();
  const setMe = useSetMe();
  return (
    <Button
      className={styles.signOut}
      onPress={async () => {
        await post('/api/admin/auth/logout');
        signOutNotice.pending = true;
        setMe(null);
        navigate('/login', { replace: true });
      }}
    >
      {t('admin.nav.signOut')}
    </Button>
  );
}

/** Each screen's address and the permission it needs. */
const SCREENS = [
  ['/inbox', 'submissions.read', InboxScreen],
  ['/inbox/:id', 'submissions.read', SubmissionScreen],
  ['/orders', 'orders.read', OrdersScreen],
  ['/orders/:id', 'orders.read', OrderScreen],
  ['/pick-list', 'orders.read', PickListScreen],
  ['/delivery', 'shop.manage', DeliveryScreen],
  ['/catalogue', 'shop.manage', CatalogueScreen],
  ['/reviews', 'reviews.moderate', ReviewsScreen],
  ['/coupons', 'shop.manage', CouponsScreen],
  ['/gift-cards', 'shop.manage', GiftCardsScreen],
  ['/customers', 'customers.read', CustomersScreen],
  ['/customers/:id', 'customers.read', CustomerScreen],
  ['/report', 'orders.read', ReportScreen],
  ['/subscribers', 'subscribers.read', SubscribersScreen],
  ['/campaigns', 'subscribers.read', CampaignsScreen],
  ['/campaigns/:id', 'subscribers.read', CampaignScreen],
  ['/news', 'content.publish', NewsScreen],
  ['/content/news/:id', 'content.edit', NewsEditorScreen],
  ['/content', 'content.edit', PagesScreen],
  ['/content/pages/:id', 'content.edit', PageEditorScreen],
  ['/content/recipes', 'content.edit', RecipesScreen],
  ['/content/recipes/:id', 'content.edit', RecipeEditorScreen],
  ['/content/media', 'content.edit', MediaScreen],
  ['/content/media/:id', 'content.edit', MediaImageScreen],
  ['/content/products', 'content.edit', ProductsScreen],
  ['/content/products/:id', 'content.edit', ProductEditorScreen],
  ['/content/jobs', 'content.edit', JobsScreen],
  ['/content/jobs/:id', 'content.edit', JobEditorScreen],
  ['/content/school-materials', 'content.edit', SchoolMaterialsScreen],
  ['/content/school-materials/:id', 'content.edit', SchoolMaterialEditorScreen],
  ['/content/timeline', 'content.edit', TimelineScreen],
  ['/content/timeline/:id', 'content.edit', TimelineYearEditorScreen],
  ['/content/map', 'content.edit', MapRegionsScreen],
  ['/content/map/:id', 'content.edit', MapRegionEditorScreen],
  ['/synonyms', 'search.synonyms', SynonymsScreen],
  ['/settings/forms', 'forms.settings', FormSettingsScreen],
  ['/staff', 'staff.manage', StaffScreen],
  ['/staff/:id', 'staff.manage', StaffDetailScreen],
  ['/roles', 'staff.manage', RolesScreen],
  ['/audit', 'audit.read', AuditScreen],
  ['/personal-data', 'personal-data.export', PersonalDataScreen],
] as const;

/** The screen the address names, when the staff member may open it. */
function Screens({ me }: { me: Me }) {
  const { t } = useT();
  return (
    <Routes>
      <Route path="/" element={<HomeScreen me={me} />} />
      <Route path="/profile" element={<ProfileScreen me={me} />} />
      {SCREENS.map(([path, permission, Screen]) => (
        <Route
          key={path}
          path={path}
          element={
            <Need me={me} permission={permission}>
              <Screen />
            </Need>
          }
        />
      ))}
      <Route path="/login" element={<Navigate to="/" replace />} />
      <Route path="/enrol" element={<EnrolScreen />} />
      <Route path="*" element={<p>{t('admin.notFound')}</p>} />
    </Routes>
  );
}
