import { siteConfig } from '@/config/site';
import { useLanguage } from '@/i18n/language-context';
import { PAGE_PATH } from '@/i18n/page-paths';
import { BrandLogo } from './brand-logo';
import { focusRing } from './control-styles';
import { Icon } from './icons';

const linkStyle = `inline-flex min-h-11 items-center gap-2 rounded-full bg-white px-4 ring-1 ring-stone-300 hover:bg-stone-50 ${focusRing}`;
const textLinkStyle = `inline-flex min-h-11 items-center gap-2 rounded-sm text-sm underline underline-offset-4 hover:text-stone-950 ${focusRing}`;

export function SiteFooter() {
  const { page, locale, messages } = useLanguage();
  const copy = messages.footer;
  const { socialProfile, contactEmail } = siteConfig;
  // GDPR art. 13; one text node, which the operator's preflight reads. "KvK" is the register's own name.
  const { legalName, postalAddress, kvkNumber } = siteConfig.controller;
  const legal =
    legalName &&
    [copy.runBy(legalName), postalAddress, kvkNumber && `KvK ${kvkNumber}`].filter(Boolean).join(' · ');
  return (
    <footer className="border-t border-stone-200 bg-stone-100 text-stone-700">
      <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-12 sm:px-6 md:flex-row md:items-start md:justify-between">
        <div>
          <BrandLogo className="text-stone-950" />
          <p className="mt-3 text-sm text-stone-600">{copy.launching}</p>
          {legal && <address className="mt-2 text-sm text-stone-600 not-italic">{legal}</address>}
        </div>
        <div>
          <p className="font-semibold text-stone-950">{copy.follow}</p>
          <ul className="mt-3 flex flex-wrap gap-3 text-sm">
            <li>
              <a href={socialProfile.url} target="_blank" rel="noopener noreferrer" className={linkStyle}>
                {copy.socialLink(socialProfile.network, socialProfile.handle)}
                <span className="sr-only"> {messages.common.opensInNewTab}</span>
                <Icon name="external" className="h-4 w-4" />
              </a>
            </li>
            <li>
              {/* No TikTok account exists yet: a link that goes nowhere, and says so. */}
              {/* biome-ignore lint/a11y/useValidAnchor: deliberately without href, exposed as a disabled link */}
              <a
                role="link"
                aria-disabled="true"
                className={`${linkStyle} cursor-not-allowed text-stone-500`}
              >
                <span aria-hidden="true">{copy.tiktok}</span>
                <span
                  aria-hidden="true"
                  className="rounded-full bg-stone-200 px-2 py-0.5 text-xs text-stone-700"
                >
                  {messages.common.comingSoon}
                </span>
                <span className="sr-only">{copy.tiktokPlaceholder}</span>
              </a>
            </li>
          </ul>
        </div>
        <div>
          <p className="font-semibold text-stone-950">{copy.contact}</p>
          <a href={`mailto:${contactEmail}`} className={`mt-3 ${textLinkStyle}`}>
            <Icon name="mail" className="h-4 w-4" />
            {contactEmail}
          </a>
          <p>
            <a
              href={PAGE_PATH.privacy[locale]}
              aria-current={page === 'privacy' ? 'page' : undefined}
              className={`mt-1 ${textLinkStyle}`}
            >
              {copy.privacy}
            </a>
          </p>
        </div>
      </div>
    </footer>
  );
}
