import { FunctionEventType } from 'aws-cdk-lib/aws-cloudfront';
import { buildSync } from 'esbuild';
import type { SiteMap } from '#contract/site-serving';

/** A page's other spellings answer 301; everything else is rewritten to the object routeRequest names. */
const VIEWER_REQUEST = `
function handler(event) {
  var request = event.request;
  var route = site.routeRequest(request.uri, SITE_MAP);
  if (route.kind === 'redirect') {
    var query = [];
    for (var name in request.querystring) {
      var entry = request.querystring[name];
      var values = entry.multiValue ? entry.multiValue : [entry];
      for (var i = 0; i < values.length; i++) query.push(values[i].value === '' ? name : name + '=' + values[i].value);
    }
    return {
      statusCode: 301,
      statusDescription: 'Moved Permanently',
      headers: {
        location: { value: route.location + (query.length ? '?' + query.join('&') : '') },
        'cache-control': { value: site.CACHE_CONTROL.revalidate }
      }
    };
  }
  request.uri = '/' + encodeURI(route.key);
  return request;
}`;

/** The not-found page is an ordinary object in the bucket: its answer gets status 404 here. */
const VIEWER_RESPONSE = `
function handler(event) {
  var route = site.routeRequest(event.request.uri, SITE_MAP);
  if (route.kind === 'file' && route.status === 404) {
    event.response.statusCode = 404;
    event.response.statusDescription = 'Not Found';
  }
  return event.response;
}`;

/**
 * contract/site-routing.ts, the code the local runner routes with, bundled for CloudFront's JavaScript
 * runtime 2.0 as one object, `site`; bundled rather than taken from Function.prototype.toString, so it does
 * not depend on how the host compiled TypeScript.
 */
export function siteRoutingFunctionCode(event: FunctionEventType, siteMap: SiteMap): string {
  const bundled = buildSync({
    stdin: {
      contents: `import { CACHE_CONTROL, routeRequest } from '../../contract/site-routing.ts';
var site = {};
site.CACHE_CONTROL = CACHE_CONTROL;
site.routeRequest = routeRequest;`,
      resolveDir: import.meta.dirname,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'esm',
    // Kept whole: `site` is used by the handler that follows, which esbuild does not see.
    treeShaking: false,
    target: 'es2015',
    legalComments: 'none',
  }).outputFiles;
  return [
    `var SITE_MAP = ${JSON.stringify(siteMap)};`,
    ...bundled.map((file) => file.text),
    event === FunctionEventType.VIEWER_REQUEST ? VIEWER_REQUEST : VIEWER_RESPONSE,
  ].join('\n');
}
