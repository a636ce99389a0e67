/** What the service is called in its logs and metrics (Powertools' service name), and its metrics' namespace. */
export const SERVICE_NAME = 'template-messaging-service';
export const METRICS_NAMESPACE = 'TemplateMessagingService';
