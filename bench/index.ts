/** Runs every benchmark: `npm run bench`. */
import { runVerifyCallbackBench } from "./verify-callback.bench"

runVerifyCallbackBench()
