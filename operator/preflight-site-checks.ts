/**
 * The preflight's checks of what this machine sees (`npm run waitlist -- preflight`): the sending domain's and
 * the site's DNS records through its resolver, as a receiving mail server or a visitor would find them, and
 * the deployed site through fetch. Like the account's checks, each reads only and says ok, warn or fail with
 * what to do.
 */
import { readSiteConfig } from '#contract/site-config';
import { LANGUAGE_HOMES } from '#contract/site-serving';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import {
  type Check,
  type DnsResolver,
  fail,
  mailFromFinding,
  mailFromOf,
  ok,
  outputOf,
  warn,
} from './preflight-launch';

const sameName = (a: string, b: string) =>
  a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');

/** A lookup's records; none when the name or the type has none (NXDOMAIN, NODATA). */
async function records<T>(lookup: Promise<T[]>): Promise<T[]> {
  try {
    return await lookup;
  } catch (error) {
    if (['ENOTFOUND', 'ENODATA'].includes(String((error as { code?: unknown }).code))) return [];
    throw error;
  }
}

/** TXT records, each as one string (a long record comes in chunks). */
const txtRecords = async (resolver: DnsResolver, name: string) =>
  (await records(resolver.resolveTxt(name))).map((chunks) => chunks.join(''));

/** The DKIM target a token's CNAME points at: `<token>.dkim.amazonses.com`, as Easy DKIM names it. */
const isDkimTarget = (token: string, value: string) =>
  value.toLowerCase().startsWith(`${token.toLowerCase()}.dkim.`) && /amazonses\.com\.?$/i.test(value);

const dnsDkimCheck: Check = {
  name: 'DNS DKIM',
  needs: ['ses:GetEmailIdentity'],
  async run({ identity, resolver }) {
    const { domain, DkimAttributes } = await identity();
    const tokens = DkimAttributes?.Tokens ?? [];
    if (tokens.length === 0) return fail(`SES gives no DKIM tokens for ${domain}`, 'deploy again');
    const missing: string[] = [];
    for (const token of tokens) {
      const name = `${token}._domainkey.${domain}`;
      const found = await records(resolver.resolveCname(name));
      if (!found.some((value) => isDkimTarget(token, value)))
        missing.push(`${name} CNAME ${token}.dkim.amazonses.com`);
    }
    if (missing.length === 0) return ok(`the ${tokens.length} DKIM CNAME records of ${domain} are found`);
    return fail(
      `${missing.length} of ${tokens.length} DKIM CNAME records not found from here`,
      `publish ${missing.join('; ')}`,
    );
  },
};

const dnsMailFromMxCheck: Check = {
  name: 'DNS MAIL FROM MX',
  needs: ['ses:GetEmailIdentity'],
  async run({ identity, resolver, region }) {
    const sender = await identity();
    const name = mailFromOf(sender);
    const exchange = `feedback-smtp.${region}.amazonses.com`;
    const found = name ? await records(resolver.resolveMx(name)) : [];
    if (found.some((record) => sameName(record.exchange, exchange))) return ok(`${name} MX ${exchange}`);
    return mailFromFinding(sender)(
      `${name || 'the MAIL FROM domain'} has no MX record to ${exchange}`,
      `publish ${name} MX 10 ${exchange}`,
    );
  },
};

const dnsSpfCheck: Check = {
  name: 'DNS MAIL FROM SPF',
  needs: ['ses:GetEmailIdentity'],
  async run({ identity, resolver }) {
    const sender = await identity();
    const name = mailFromOf(sender);
    const spf = name ? (await txtRecords(resolver, name)).filter((text) => /^v=spf1(\s|$)/i.test(text)) : [];
    const todo = `publish ${name} TXT "v=spf1 include:amazonses.com ~all"`;
    // Two SPF records make SPF itself fail (RFC 7208, permerror).
    if (spf.length > 1)
      return mailFromFinding(sender)(`${name} has ${spf.length} SPF records`, `keep one: ${todo}`);
    if (spf[0] && /\binclude:amazonses\.com\b/i.test(spf[0])) return ok(`${name} TXT "${spf[0]}"`);
    return mailFromFinding(sender)(
      spf[0] ? `${name}'s SPF record "${spf[0]}" leaves SES out` : `${name} has no SPF record`,
      todo,
    );
  },
};

const dnsDmarcCheck: Check = {
  name: 'DNS DMARC',
  needs: ['ses:GetEmailIdentity'],
  async run({ identity, resolver, stack }) {
    const { domain } = await identity();
    const name = `_dmarc.${domain}`;
    const [dmarc] = (await txtRecords(resolver, name)).filter((text) => /^v=DMARC1\s*(;|$)/i.test(text));
    if (dmarc) return ok(`${name} TXT "${dmarc}"`);
    return fail(
      `${domain} has no DMARC record: Gmail and Yahoo refuse bulk mail without one`,
      `publish ${stack.outputs.DmarcRecord ?? `${name} TXT "v=DMARC1; p=quarantine; rua=mailto:<contact address>"`}`,
    );
  },
};

const dnsSiteCheck: Check = {
  name: 'DNS site',
  needs: ['cloudfront:GetDistribution'],
  async run({ distribution, resolver }) {
    const { DomainName = '', DistributionConfig } = await distribution();
    const names = DistributionConfig?.Aliases?.Items ?? [];
    if (names.length === 0) return ok(`the site is at CloudFront's own name, ${DomainName}`);
    const cloudFront = new Set(await records(resolver.resolve4(DomainName)));
    const astray: string[] = [];
    for (const name of names) {
      // A CNAME to the distribution, or (at a domain's apex) an ALIAS that answers the distribution's addresses.
      const cname = await records(resolver.resolveCname(name));
      const addresses = cname.some((target) => sameName(target, DomainName))
        ? [...cloudFront]
        : await records(resolver.resolve4(name));
      if (!addresses.some((address) => cloudFront.has(address))) astray.push(name);
    }
    if (astray.length === 0) return ok(`${names.join(', ')} point at ${DomainName}`);
    return fail(
      `${astray.join(', ')} do${astray.length === 1 ? 'es' : ''} not point at the distribution ${DomainName}`,
      'publish a CNAME to it (an ALIAS record at the domain’s apex)',
    );
  },
};

const pagesCheck: Check = {
  name: 'Pages',
  needs: [],
  async run({ site, stack }) {
    const answers = await Promise.all(
      LANGUAGE_HOMES.map(async (path) => ({ path, ...(await site('GET', path)) })),
    );
    const wrong = answers.filter(({ status, viaCloudFront }) => status !== 200 || !viaCloudFront);
    const siteUrl = outputOf(stack, 'SiteUrl');
    if (wrong.length === 0)
      return ok(`${LANGUAGE_HOMES.join(' and ')} answer 200 through CloudFront at ${siteUrl}`);
    return fail(
      wrong
        .map(
          ({ path, status, viaCloudFront }) =>
            `${path} answers ${status}${viaCloudFront ? '' : ', not from CloudFront'}`,
        )
        .join('; '),
      'deploy again (the pages are uploaded to the bucket), and read the stack’s events',
    );
  },
};

/**
 * The API behind the distribution, asked with OPTIONS, which writes nothing: the API has no route for it
 * and answers 404, while a behaviour that sent it elsewhere answers 403 (the bucket's behaviour takes GET and
 * HEAD only) and an API CloudFront cannot reach 502 or 504.
 */
const apiCheck: Check = {
  name: 'API',
  needs: [],
  async run({ site }) {
    const { status, viaCloudFront } = await site('OPTIONS', WAITLIST_PATH);
    const says = `OPTIONS ${WAITLIST_PATH} answers ${status}${viaCloudFront ? ' through CloudFront' : ', not from CloudFront'}`;
    if (status < 500 && status !== 403 && viaCloudFront) return ok(says);
    return fail(says, 'deploy again, and read the API function’s log and the stack’s events');
  },
};

/** What React writes for the five characters it escapes in text. */
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'" };

const unescapeHtml = (html: string) =>
  html.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, name: string) => ENTITIES[name] ?? '');

/**
 * The controller's details (GDPR art. 13) in the deployed page: the footer's <address>, which the page has
 * only when MANDJE_CONTROLLER_* were set for its build (frontend/src/components/site-footer.tsx); with
 * MANDJE_CONTROLLER_NAME set here too, that name.
 */
const controllerCheck: Check = {
  name: 'Controller',
  needs: [],
  async run({ site, siteEnv }) {
    const { body } = await site('GET', '/');
    const footer = /<address\b[^>]*>([^<]*)<\/address>/.exec(body)?.[1];
    const expected = readSiteConfig(siteEnv).controller.legalName;
    const todo =
      'set MANDJE_CONTROLLER_NAME and MANDJE_CONTROLLER_ADDRESS (and MANDJE_CONTROLLER_KVK) where the page is built (the deploy workflow’s variables), then deploy';
    if (footer === undefined)
      return fail('the deployed page names no controller of the waitlist’s data', todo);
    const named = unescapeHtml(footer);
    if (expected && !named.includes(expected))
      return warn(
        `the deployed page names "${named}", not "${expected}" (MANDJE_CONTROLLER_NAME here)`,
        todo,
      );
    return ok(`the deployed page names "${named}"`);
  },
};

export const SITE_CHECKS: Check[] = [
  dnsDkimCheck,
  dnsMailFromMxCheck,
  dnsSpfCheck,
  dnsDmarcCheck,
  dnsSiteCheck,
  pagesCheck,
  apiCheck,
  controllerCheck,
];
