import { e2eVitestConfig } from '../../vitest.shared.ts';

export default e2eVitestConfig({ globalSetup: ['src/global-setup.ts'] });
