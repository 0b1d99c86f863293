import { projectVitestConfig } from '../vitest.shared.ts';

export default projectVitestConfig();
