import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import {
  isPublicAddress,
  mayUsePrivateAddresses,
  parseWebhookUrl,
  urlHost,
} from '../../domain/webhook-url.js';
import { AppError } from '../../errors.js';
import type { ServiceDeps } from '../deps.js';

/**
 * An endpoint URL as the operator registers it (domain/webhook-url.ts), and a name that resolves
 * to a non-public address now is refused now rather than at its first delivery. A name that does
 * not resolve yet is accepted: every delivery resolves it again and checks what it connects to.
 */
export async function checkWebhookUrl(deps: Pick<ServiceDeps, 'config'>, raw: string): Promise<URL> {
  const policy = deps.config.webhooks;
  const url = parseWebhookUrl(raw, policy);
  const host = urlHost(url);
  if (isIP(host) !== 0 || mayUsePrivateAddresses(host, policy)) return url;
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    return url;
  }
  const refused = addresses.find((a) => !isPublicAddress(a.address));
  if (refused)
    throw new AppError('INVALID_REQUEST', {
      field: 'url',
      detail: `${host} resolves to ${refused.address}, not a public address; WEBHOOK_ALLOW_PRIVATE_HOSTS must name it to send events there`,
    });
  return url;
}
