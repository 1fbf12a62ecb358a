/** The subscription does not exist for that customer, or it was deleted. */
export class SubscriptionNotFoundError extends Error {
  constructor(readonly subscriptionId: string) {
    super(`webhook subscription ${subscriptionId} not found`);
    this.name = "SubscriptionNotFoundError";
  }
}
