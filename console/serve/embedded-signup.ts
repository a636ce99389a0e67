import { embeddedSignupSettings } from '#lib/config.ts';

/**
 * Embedded Signup as the console launches it (issue 55, docs/console.md): the Meta app, its Facebook Login for
 * Business configuration and the Graph version `FB.init` names. Served in the page's settings beside the sign-in;
 * absent where the deployment names no configuration, and then the console uses the local stand-in for the popup.
 */
export interface EmbeddedSignupConfig {
  appId: string;
  configId: string;
  graphVersion: string;
}

export function consoleEmbeddedSignup(): EmbeddedSignupConfig | undefined {
  const { appId, configId, graphVersion } = embeddedSignupSettings();
  return appId && configId ? { appId, configId, graphVersion } : undefined;
}

/**
 * Where Facebook's JavaScript SDK loads from and what it opens (docs/platform-2027.md §1.1): its script, and the
 * frames and calls of its login dialog. The console's policy allows them only where Embedded Signup is configured.
 */
export const FACEBOOK_SDK_URL = 'https://connect.facebook.net/en_US/sdk.js';
export const FACEBOOK_ORIGINS = {
  script: ['https://connect.facebook.net'],
  frame: ['https://www.facebook.com', 'https://staticxx.facebook.com'],
  connect: ['https://www.facebook.com', 'https://connect.facebook.net'],
};
