import PayDue from '../../islands/PayDue';

/** Islands of the subscriber's page (see screens/islands.ts): a recovery link's card form. */
export const SUBSCRIBER_ISLANDS = { PayDue } as const;
