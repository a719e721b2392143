// The test app's root as Medusa sees it: medusa-config here and src/ beside it, whose api/,
// subscribers/ and workflows/ are symlinks to the repository's own. Not jobs/: the scheduled jobs
// would run on their own clock in the middle of a test (the reconciliation job, every minute, reads
// back lost deposits a test is about to prove lost); HTTP tests run those jobs' workflows themselves,
// when they choose. A real store (the demo, the production check, the scale test) loads the jobs.
// The folder is hidden so that tsc, which skips dot-folders, does not compile src/ a second time
// through the symlinks. The configuration itself is ../medusa-config.ts.
module.exports = require("../medusa-config")
