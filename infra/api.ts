import { Duration, type Stack, Validations } from 'aws-cdk-lib';
import { type CfnStage, CorsHttpMethod, HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { MathExpression } from 'aws-cdk-lib/aws-cloudwatch';
import { FunctionUrlAuthType, type FunctionUrl, SystemLogLevel } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { ROUTE_NOT_FOUND, routes } from '#lib/manifest/routes.ts';
import type { NeedsGrants } from './grants.ts';
import type { Identity } from './identity.ts';
import type { Monitoring } from './monitoring.ts';
import { ServiceFunction } from './service-function.ts';

/**
 * The HTTP API: the JWT authorizer of the identity's issuer, throttling and access logs, a function per route
 * of the manifest (lib/manifest/routes.ts) with its grants, and the fallback that answers 404/405. A route served
 * at a function URL (`functionUrl`: Meta's webhook intake, issue 54) has its function and URL, and no API route.
 */
export class ServiceApi {
  readonly api: HttpApi;
  /** The function URLs of the routes that have one (lib/manifest/route.ts `functionUrl`), by route name. */
  readonly functionUrls: Record<string, FunctionUrl> = {};

  /** The API itself first: its address is the console's callback URL, which the routes' settings need. */
  constructor(scope: Stack, monitoring: Monitoring) {
    const api = new HttpApi(scope, 'Api', {
      description: 'Template Messaging Service',
      corsPreflight: {
        allowHeaders: ['authorization', 'content-type'],
        allowMethods: [CorsHttpMethod.ANY],
        allowOrigins: ['*'],
        maxAge: Duration.hours(1),
      },
    });
    this.api = api;
    // Rate limiting is API Gateway's throttling (decisions §7); every request is logged as one JSON line.
    const stage = api.defaultStage!.node.defaultChild as CfnStage;
    stage.defaultRouteSettings = { throttlingRateLimit: 100, throttlingBurstLimit: 200 };
    const accessLogs = new LogGroup(scope, 'ApiAccessLogs', { retention: RetentionDays.ONE_MONTH });
    stage.accessLogSettings = { destinationArn: accessLogs.logGroupArn, format: JSON.stringify(ACCESS_LOG_FORMAT) };
    const serverErrorRate = new MathExpression({
      expression: '100 * errors / MAX([requests, 1])',
      usingMetrics: {
        errors: api.metricServerError({ period: Duration.minutes(5) }),
        requests: api.metricCount({ period: Duration.minutes(5) }),
      },
      period: Duration.minutes(5),
      label: '5xx %',
    });
    monitoring.alarm('Api5xxRate', serverErrorRate, 'More than 1% of API requests answered 5xx in 5 minutes', 1);
  }

  /** A function per route with its grants behind the JWT authorizer of the identity's issuer and audiences, and the fallback. */
  addRoutes(scope: Stack, identity: Identity, grants: NeedsGrants) {
    const { api } = this;
    const authorizer = new HttpJwtAuthorizer('JwtAuthorizer', identity.issuer, {
      jwtAudience: identity.audiences,
      identitySource: ['$request.header.Authorization'],
    });
    for (const route of routes) {
      const fn = new ServiceFunction(scope, route.name, {
        entry: route.entry,
        environment: { ...identity.environment },
        ...(route.files && { copyFiles: route.files }),
        // Meta's intake takes 300,000 POSTs a second at 100 HIGH numbers: Lambda's START and REPORT lines (about
        // 630 bytes an invocation, figures Lambda's metrics hold already) would be a third of its logs' cost.
        ...(route.functionUrl && { systemLogLevel: SystemLogLevel.WARN }),
      });
      grants.grant(fn, route.needs);
      // Meta's intake (issue 54): the function's own URL in place of an API route, public as the route is, the
      // signature checked inside; no API Gateway quota or throttle stands before it.
      if (route.functionUrl) {
        this.functionUrls[route.name] = fn.addFunctionUrl({ authType: FunctionUrlAuthType.NONE });
        continue;
      }
      const [created] = api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${route.name}Integration`, fn),
        authorizer: route.auth ? authorizer : undefined,
      });
      if (!route.auth) Validations.of(created).acknowledge({ id: 'AwsSolutions-APIG4', reason: route.publicBecause ?? 'public' });
    }

    // Anything else: 404, or 405 for a known path with another method, in the contract's error shape.
    const fallback = new ServiceFunction(scope, ROUTE_NOT_FOUND.name, { entry: ROUTE_NOT_FOUND.entry, memorySize: 256 });
    grants.grant(fallback, ROUTE_NOT_FOUND.needs);
    const [fallbackRoute] = api.addRoutes({
      path: '/{proxy+}',
      methods: [HttpMethod.ANY],
      integration: new HttpLambdaIntegration('RouteNotFoundIntegration', fallback),
    });
    Validations.of(fallbackRoute).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: 'Answers 404/405 for paths no route has; reads nothing.',
    });
  }
}

/** One JSON line per API request: who, what, how it ended, and the id the function logs as `request_id`. */
const ACCESS_LOG_FORMAT = {
  requestId: '$context.requestId',
  time: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  method: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  responseLength: '$context.responseLength',
  latencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  authorizerError: '$context.authorizer.error',
  sub: '$context.authorizer.claims.sub',
  userAgent: '$context.identity.userAgent',
};
