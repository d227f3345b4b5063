import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '#contract/site-config';
import { ROBOT_USER_AGENT_TOKENS, VISIT_PAGES, VISITS_METRIC } from '#contract/visit-counting';
import { ACCESS_LOG_FIELDS } from '../../infra/constructs/visit-logs';
import { addMandjeStacks, type MandjeStacks } from '../../infra/mandje-stacks';
import { fakeFunctionsDir, fakeSiteDir, MAIL_FROM } from './synth';
import { logicalIdOf, type Resource } from './template-queries';

let stacks: MandjeStacks;
let template: Template;

const synth = (waf: boolean, app = new App()) =>
  addMandjeStacks(app, {
    env: { account: '123456789012', region: 'eu-west-1' },
    siteDir: fakeSiteDir(),
    functionsDir: fakeFunctionsDir(),
    confirmation: { mailFrom: MAIL_FROM },
    contactEmail: DEFAULT_SITE_CONFIG.contactEmail,
    waf,
  });

const only = (type: string): Resource => {
  const [resource, ...others] = Object.values(template.findResources(type)) as Resource[];
  if (!resource || others.length > 0) throw new Error(`not exactly one ${type}`);
  return resource;
};

beforeAll(() => {
  stacks = synth(true);
  template = Template.fromStack(stacks.edgeLogs);
});

describe('the MandjeEdgeLogs stack', () => {
  it('is in us-east-1, where CloudWatch Logs takes a distribution’s delivery source, whatever Mandje’s region', () => {
    expect(stacks.edgeLogs.region).toBe('us-east-1');
    expect(stacks.mandje.region).toBe('eu-west-1');
  });

  it('is deployed after the Mandje stack, whose distribution it logs, and exists without WAF too', () => {
    expect(stacks.edgeLogs.dependencies).toContain(stacks.mandje);
    expect(stacks.mandje.dependencies).not.toContain(stacks.edgeLogs);
    const app = new App();
    const withoutWaf = synth(false, app);
    // References, and the dependencies they make, are resolved when the app is synthesized.
    Template.fromStack(withoutWaf.edgeLogs);
    expect(app.node.children.filter((child) => child instanceof Stack).map((stack) => stack.node.id)).toEqual(
      ['Mandje', 'MandjeEdgeLogs'],
    );
    expect(withoutWaf.edgeLogs.dependencies).toContain(withoutWaf.mandje);
  });

  it('logs the Mandje distribution, its ARN read from the Mandje stack’s output across regions', () => {
    const source = only('AWS::Logs::DeliverySource').Properties;
    expect(source.LogType).toBe('ACCESS_LOGS');
    const arn = JSON.stringify(source.ResourceArn);
    expect(arn).toContain(':cloudfront::123456789012:distribution/');
    const reference = JSON.parse(arn.slice(arn.indexOf('{"Fn::GetStackOutput"'), arn.lastIndexOf('}') - 2));
    expect(reference['Fn::GetStackOutput']).toMatchObject({ StackName: 'Mandje', Region: 'eu-west-1' });
    const outputs = Template.fromStack(stacks.mandje).findOutputs('*');
    expect(outputs[reference['Fn::GetStackOutput'].OutputName]?.Value).toEqual({
      Ref: logicalIdOf(stacks.mandje.site.distribution),
    });
  });
});

describe('the access log delivery', () => {
  it('delivers only the fields a visit is told by: never the client’s IP, its cookies or the query string', () => {
    const fields = only('AWS::Logs::Delivery').Properties.RecordFields as string[];
    expect(fields).toEqual([...ACCESS_LOG_FIELDS]);
    for (const identifying of [
      'c-ip',
      'x-forwarded-for',
      'cs(Cookie)',
      'cs-uri-query',
      'cs(Referer)',
      'c-port',
    ])
      expect(fields).not.toContain(identifying);
  });

  it('delivers JSON to the stack’s log group, which keeps it 30 days', () => {
    const destination = only('AWS::Logs::DeliveryDestination').Properties;
    expect(destination.OutputFormat).toBe('json');
    expect(JSON.stringify(destination.DestinationResourceArn)).toContain(
      JSON.stringify({ Ref: logicalIdOf(stacks.edgeLogs.visitLogs.logGroup) }),
    );
    expect(only('AWS::Logs::LogGroup').Properties.RetentionInDays).toBe(30);
  });

  it('lets this account’s log deliveries write to the group, and nothing else', () => {
    const policy = JSON.stringify(only('AWS::Logs::ResourcePolicy').Properties.PolicyDocument);
    expect(policy).toContain('\\"Principal\\":{\\"Service\\":\\"delivery.logs.amazonaws.com\\"}');
    expect(policy).toContain('\\"Action\\":[\\"logs:CreateLogStream\\",\\"logs:PutLogEvents\\"]');
    expect(policy).toContain('\\"aws:SourceAccount\\":\\"123456789012\\"');
    expect(policy).toContain(':delivery-source:*');
    const delivery = Object.entries(template.findResources('AWS::Logs::Delivery'))[0]?.[1] as {
      DependsOn: string[];
    };
    expect(delivery.DependsOn).toEqual(
      expect.arrayContaining(Object.keys(template.findResources('AWS::Logs::ResourcePolicy'))),
    );
  });
});

type TransformerStep = {
  ParseJSON?: object;
  LowerCaseString?: { WithKeys: string[] };
  SubstituteString?: { Entries: { Source: string; From: string; To: string }[] };
};

describe('the Visits metric', () => {
  const transformer = () => only('AWS::Logs::Transformer').Properties.TransformerConfig as TransformerStep[];
  const filter = () => only('AWS::Logs::MetricFilter').Properties;

  it('is counted from the transformed lines: plain keys, the user agent lower-cased, Language from the path', () => {
    const config = transformer();
    expect(config[0]).toHaveProperty('ParseJSON');
    expect(config.find((step) => step.LowerCaseString)?.LowerCaseString?.WithKeys).toEqual(['userAgent']);
    const substitutions = config.find((step) => step.SubstituteString)?.SubstituteString?.Entries;
    expect(substitutions).toEqual(
      Object.entries(VISIT_PAGES).map(([language, page]) => ({
        Source: 'Language',
        From: `^${page}$`,
        To: language,
      })),
    );
    expect(filter().ApplyOnTransformedLogs).toBe(true);
  });

  it('is Mandje’s Visits by Language, one per matching line, the Language only ever nl or en', () => {
    expect(filter().MetricTransformations).toEqual([
      {
        MetricNamespace: VISITS_METRIC.namespace,
        MetricName: VISITS_METRIC.name,
        MetricValue: '1',
        Dimensions: [{ Key: 'Language', Value: '$.Language' }],
      },
    ]);
    const pattern = filter().FilterPattern as string;
    expect(pattern).toContain('($.method = "GET")');
    expect(pattern).toContain('(($.Language = "nl") || ($.Language = "en"))');
    expect(pattern).toContain('(($.status = 200) || ($.status = 304))');
  });

  it('leaves out every robot token the runner leaves out', () => {
    const pattern = filter().FilterPattern as string;
    for (const token of ROBOT_USER_AGENT_TOKENS) expect(pattern).toContain(`($.userAgent != "*${token}*")`);
  });
});

describe('the dashboard’s funnel', () => {
  let body: string;
  beforeAll(() => {
    const dashboard = Object.values(
      Template.fromStack(stacks.mandje).findResources('AWS::CloudWatch::Dashboard'),
    )[0] as Resource;
    body = JSON.stringify(dashboard.Properties.DashboardBody);
  });

  it('reads the visits per day and language from us-east-1, beside signups and confirmations', () => {
    for (const language of ['nl', 'en']) {
      expect(body).toMatch(
        new RegExp(
          `\\[\\\\"Mandje\\\\",\\\\"Visits\\\\",\\\\"Language\\\\",\\\\"${language}\\\\",\\{[^}]*\\\\"region\\\\":\\\\"us-east-1\\\\"[^}]*\\\\"period\\\\":86400`,
        ),
      );
      expect(body).toContain(`\\"Joined\\",\\"Language\\",\\"${language}\\",\\"Service\\",\\"waitlist\\"`);
    }
    expect(body).toContain('\\"Confirmed\\",\\"Service\\",\\"confirm\\"');
  });

  it('shows conversion as metric math: signups per visit by language, confirmations per signup', () => {
    expect(body).toContain('100 * FILL(signups_nl, 0) / visits_nl');
    expect(body).toContain('100 * FILL(signups_en, 0) / visits_en');
    expect(body).toContain(
      'IF(FILL(signups_nl, 0) + FILL(signups_en, 0) > 0, 100 * FILL(confirmed, 0) / (FILL(signups_nl, 0) + FILL(signups_en, 0)))',
    );
  });

  it('counts signups by source with Logs Insights over the waitlist function’s log, not a metric per source', () => {
    expect(body).toContain('filter Joined > 0');
    expect(body).toContain('stats count(*) as signups by source');
    expect(body).toContain(logicalIdOf(stacks.mandje.waitlist.handler.logGroup as never));
    expect(body).not.toMatch(/\\"Source\\",/);
  });
});
