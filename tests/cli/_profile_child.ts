/** Child of login_test: prints signedInProblem for each folder argument, as JSON, under the caller's flags. */
import { signedInProblem } from "../../hosts/web/profile.ts";

const answers = [];
for (const dir of Deno.args) answers.push(await signedInProblem("mistral", dir));
console.log(JSON.stringify(answers));
