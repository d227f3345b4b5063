import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CDK_OUT } from './deployed-stack';

/** The tier reads what `npm run synth` wrote: without it there is nothing to run. */
export default function checkSynthesized(): void {
  if (!existsSync(join(CDK_OUT, 'Mandje.template.json')))
    throw new Error('cdk.out/ holds no synthesized stack: run `npm run synth` first (npm run test:aws does)');
}
