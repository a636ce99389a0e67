import { parseArgs } from 'node:util';
import { mintToken } from './keys.ts';

/** `npm run token -- --client-id 7 [--bsp] [--campaigns 1,2] [--sub alice] [--role supervisor] [--expires-in 1h]` */
const { values } = parseArgs({
  options: {
    'client-id': { type: 'string' },
    bsp: { type: 'boolean', default: false },
    campaigns: { type: 'string' },
    sub: { type: 'string' },
    role: { type: 'string' },
    'expires-in': { type: 'string', default: '1h' },
  },
});
const clientId = Number(values['client-id']);
if (!Number.isInteger(clientId) || clientId < 1) {
  console.error('usage: npm run token -- --client-id N [--bsp] [--campaigns 1,2] [--sub NAME] [--role ROLE] [--expires-in 1h]');
  process.exit(2);
}
const campaigns = values.campaigns ? values.campaigns.split(',').map((c) => Number(c.trim())) : [];
if (campaigns.some((c) => !Number.isInteger(c))) {
  console.error('--campaigns takes a comma-separated list of campaign ids');
  process.exit(2);
}
process.stdout.write(
  `${await mintToken({ clientId, bsp: values.bsp, campaigns, sub: values.sub, role: values.role, expiresIn: values['expires-in'] })}\n`,
);
