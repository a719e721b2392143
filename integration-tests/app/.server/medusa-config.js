// The test app's root as Medusa sees it: medusa-config here and src/ (a symlink to the
// repository's src/) beside it. The folder is hidden so that tsc, which skips dot-folders, does not
// compile src/ a second time through the symlink. The configuration itself is ../medusa-config.ts.
module.exports = require("../medusa-config")
