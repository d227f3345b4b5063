import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ONE_CLICK_FIELD, ONE_CLICK_VALUE } from '#contract/leave';
import { FORM_CONTENT_TYPE, MAX_REQUEST_BYTES } from '#contract/waitlist-api';
import { parseFormBody } from '../http/form-body';

/** RFC 8058's `List-Unsubscribe=One-Click` and nothing else: form-encoded, or multipart as some send it. */
export function isOneClickBody(event: APIGatewayProxyEventV2): boolean {
  if (event.requestContext.http.method !== 'POST') return false;
  const [type = '', ...parameters] = (event.headers['content-type'] ?? '').split(';');
  const body = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  if (body.byteLength > MAX_REQUEST_BYTES) return false;
  const text = body.toString('latin1');
  switch (type.trim().toLowerCase()) {
    case FORM_CONTENT_TYPE:
      return isOnlyOneClick(parseFormBody(text));
    case 'multipart/form-data': {
      const boundary = parameters
        .map((parameter) => parameter.trim().match(/^boundary="?([^"]+)"?$/i)?.[1])
        .find((value) => value !== undefined);
      return boundary !== undefined && isOnlyOneClick(multipartFields(text, boundary));
    }
    default:
      return false;
  }
}

const isOnlyOneClick = (fields: Record<string, string> | undefined) =>
  fields !== undefined &&
  Object.keys(fields).length === 1 &&
  fields[ONE_CLICK_FIELD]?.trim() === ONE_CLICK_VALUE;

/** No files; undefined when it is not one. */
function multipartFields(text: string, boundary: string): Record<string, string> | undefined {
  const delimiter = `--${boundary}`;
  const sections = text.split(delimiter);
  // A preamble and an epilogue are ignored.
  const closing = sections.at(-1);
  if (sections.length < 3 || !closing?.startsWith('--')) return undefined;
  const fields: Record<string, string> = Object.create(null);
  for (const section of sections.slice(1, -1)) {
    const part = section.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
    const split = part.search(/\r?\n\r?\n/);
    if (split < 0) return undefined;
    const headers = part.slice(0, split);
    const value = part.slice(split).replace(/^\r?\n\r?\n/, '');
    const name = headers.match(/^content-disposition:\s*form-data;(?:.*;)?\s*name="([^"]*)"/im)?.[1];
    if (name === undefined || /filename=/i.test(headers) || Object.hasOwn(fields, name)) return undefined;
    fields[name] = value;
  }
  return fields;
}
