import { describe, expect, it } from 'vitest';
import { isRobotUserAgent, type RequestOutcome, visitLanguageOf } from '#contract/visit-counting';

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
const visit: RequestOutcome = { method: 'GET', path: '/', status: 200, userAgent: CHROME };

describe('what counts as a visit (one rule for the runner and the access logs)', () => {
  it.each([
    ['the Dutch home', visit, 'nl'],
    ['the English home', { ...visit, path: '/en/' }, 'en'],
    ['a revalidated home (304)', { ...visit, path: '/en/', status: 304 }, 'en'],
    ['no user agent at all', { ...visit, userAgent: undefined }, 'nl'],
  ] as const)('counts %s', (_name, outcome, language) => {
    expect(visitLanguageOf(outcome)).toBe(language);
  });

  it.each([
    ['HEAD', { ...visit, method: 'HEAD' }],
    ['a POST', { ...visit, method: 'POST' }],
    ['an asset', { ...visit, path: '/assets/index-Ab12.js' }],
    ['another page', { ...visit, path: '/privacy' }],
    ['/en without its slash (a redirect)', { ...visit, path: '/en', status: 301 }],
    ['/index.html', { ...visit, path: '/index.html', status: 301 }],
    ['a not-found answer', { ...visit, status: 404 }],
    ['an error', { ...visit, status: 503 }],
  ] as const)('does not count %s', (_name, outcome) => {
    expect(visitLanguageOf(outcome)).toBeUndefined();
  });

  it.each([
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
    'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
    'Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)',
    'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)',
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36 Chrome-Lighthouse',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0 Safari/537.36',
    'SomeCrawler/1.0',
  ])('does not count a robot that says so: %s', (userAgent) => {
    expect(isRobotUserAgent(userAgent)).toBe(true);
    expect(visitLanguageOf({ ...visit, userAgent })).toBeUndefined();
  });

  it.each([
    CHROME,
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:141.0) Gecko/20100101 Firefox/141.0',
  ])('counts a browser: %s', (userAgent) => {
    expect(isRobotUserAgent(userAgent)).toBe(false);
  });
});
