import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, expect, it } from 'vitest';
import { deploySettings } from '../../infra/deploy-settings';
import type { MandjeStack } from '../../infra/mandje-stack';
import { MAIL_FROM, synthStack } from './synth';
import { logicalIdOf, present, statementsOf } from './template-queries';

let stack: MandjeStack;
let template: Template;

beforeAll(() => {
  // As `cdk deploy -c mailFrom=… -c sesSandboxRecipients=…` gives it, while the account is in the sandbox.
  const app = new App({
    context: { mailFrom: MAIL_FROM, sesSandboxRecipients: 'ann@example.nl, bob@example.nl' },
  });
  stack = synthStack(deploySettings(app), app);
  template = Template.fromStack(stack);
});

it('lets the mailer send to the verified recipients’ identities besides its own identity and configuration set', () => {
  const mailerRole = present(present(stack.mailer, 'mailer').handler.role, 'mailer role');
  const sending = statementsOf(template, logicalIdOf(mailerRole)).find((statement) =>
    [statement.Action].flat().includes('ses:SendEmail'),
  );
  const recipientArn = (address: string) => ({
    'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:ses:eu-west-1:123456789012:identity/${address}`]],
  });
  expect(sending?.Resource).toEqual([
    stack.resolve(present(stack.mailSender, 'mail sender').identity.emailIdentityArn),
    expect.anything(),
    recipientArn('ann@example.nl'),
    recipientArn('bob@example.nl'),
  ]);
});
