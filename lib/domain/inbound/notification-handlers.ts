import type { VolumeTiers } from '../money/ports.ts';
import { reachedTier } from '../money/pricing/tiers.ts';
import {
  applyPersonMove,
  applyInbound,
  applyPreference,
  type ConsentNoticeDeps,
  type PeopleMapDeps,
  learnPeople,
  pairsOf,
} from '../people/people-notifications.ts';
import type { Log } from '../shared/log.ts';
import { levelToAskAgain, type PauseNoticeDeps, pauseNoticed } from '../sends/dispatch/meta-notices.ts';
import type { ThroughputStore } from '../sends/dispatch/ports.ts';
import { applyMessageStatuses, type MessageStatusDeps, pairOfStatus } from '../sends/message-statuses.ts';
import type { MarketingOnboardings } from '../sends/ports.ts';
import { applyReply, type ReplyDeps } from '../sends/performance/replies.ts';
import { onboardedByMeta } from '../sends/marketing-messages.ts';
import {
  applyTemplateNotification,
  type TemplateNotification,
  type TemplateNotificationDeps,
} from '../templates/template-notifications.ts';
import type { EachHandler, NotificationHandlers, NotificationRoutes } from './notification-routes.ts';

/** Each handler's ports, as the composition root gives them (the log is each notification's own). */
type PortsOf<Deps> = Omit<Deps, 'log'>;

/**
 * The ports of every handler, one group each: a group is only what its handler uses. A group that may be
 * undefined is one a deployment can go without: its kind is then ignored (and nobody's pairs are learned).
 */
export interface NotificationPorts {
  statuses: PortsOf<MessageStatusDeps>;
  templates: PortsOf<TemplateNotificationDeps>;
  /** Meta's pauses of a template and the jobs asleep on it; undefined, a status changes the records only. */
  pausing: PortsOf<PauseNoticeDeps> | undefined;
  numbers: { levels: Pick<ThroughputStore, 'forget'> };
  consent: PortsOf<ConsentNoticeDeps>;
  peopleMap: PortsOf<PeopleMapDeps> | undefined;
  /** Each WABA's month's volume tiers (decisions §26); undefined, Meta's tier updates are logged and left. */
  pricing: { tiers: VolumeTiers | undefined };
  marketing: { onboardings: MarketingOnboardings } | undefined;
  /** Replies to the sends' messages (decisions §33); undefined, an inbound message is read for consent only. */
  replies?: PortsOf<ReplyDeps>;
  log: Log;
}

const ignoring: EachHandler<unknown> = { each: async () => 'ignored' };

/** A template's news reaches its records; a status first pauses or lets it go, as the dispatcher reads it. */
function templateHandlers(ports: NotificationPorts): Pick<NotificationHandlers, TemplateNotification['kind']> {
  const records: EachHandler<TemplateNotification> = {
    each: (n, { now, correlationId, log }) => applyTemplateNotification({ ...ports.templates, log }, n, now, correlationId),
  };
  const { pausing } = ports;
  return {
    template_status: pausing
      ? {
          each: async (n, context) =>
            records.each(await pauseNoticed({ ...pausing, log: context.log }, n, Date.parse(context.now)), context),
        }
      : records,
    template_category: records,
    template_quality: records,
  };
}

/** What Meta says of people: who is who, their moves, their consent (decisions §25, §28). */
function peopleHandlers(
  ports: NotificationPorts,
): Pick<NotificationHandlers, 'people_seen' | 'person_move' | 'marketing_preference' | 'inbound_message'> {
  const { peopleMap, consent, replies } = ports;
  return {
    // Its pairs are learned with the batch's, before anything is applied.
    people_seen: { each: async () => 'applied', seen: pairsOf },
    person_move: peopleMap ? { each: (n, { log }) => applyPersonMove({ ...peopleMap, log }, n) } : ignoring,
    marketing_preference: { each: (n, { log }) => applyPreference({ ...consent, log }, n) },
    // A text's consent first (decisions §25), then what it answers (decisions §33): applied if either changed.
    inbound_message: {
      each: async (n, { log }) => {
        const read = await applyInbound({ ...consent, log }, n);
        const replied = replies && read !== 'ignored' ? await applyReply({ ...replies, log }, n) : 'ignored';
        return replied === 'applied' ? 'applied' : read;
      },
      seen: pairsOf,
    },
  };
}

/** The table of Meta's notifications by kind, each handler given only its ports. */
export function notificationRoutes(ports: NotificationPorts): NotificationRoutes {
  const { peopleMap, marketing, log } = ports;
  return {
    handlers: {
      ...templateHandlers(ports),
      ...peopleHandlers(ports),
      message_status: {
        together: (statuses, context) => applyMessageStatuses({ ...ports.statuses, log: context.log }, statuses),
        seen: pairOfStatus,
      },
      number_quality: { each: (n, context) => levelToAskAgain({ ...ports.numbers, log: context.log }, n) },
      pricing_tier: { each: (n, context) => reachedTier({ ...ports.pricing, log: context.log }, n) },
      mm_onboarded: marketing ? { each: (n) => onboardedByMeta(marketing, n.waba_id, n.at) } : ignoring,
    },
    learn: async (pairs) => peopleMap && learnPeople({ ...peopleMap, log }, pairs),
    log,
  };
}
