import PayDue from '../../islands/PayDue';
import UpdateCard from '../../islands/UpdateCard';

/**
 * Islands of the subscriber's page (see screens/islands.ts): a recovery link's card form for
 * what is due, and a manage link's card row with Update card.
 */
export const SUBSCRIBER_ISLANDS = { PayDue, UpdateCard } as const;
