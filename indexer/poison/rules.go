package poison

import (
	"regexp"
	"strings"
)

// rule is one way a text addresses an agent with instructions.
type rule struct {
	category string
	// why says what the text asks, for the message.
	why string
	// needles are lower-case strings one of which a sentence must hold
	// for the rule to read it, and also (when given) strings one of which
	// it must hold too: most sentences hold none, and a substring search
	// is far cheaper than the expression. Every text the expression
	// matches holds them (the words of a phrase on one line: normalize
	// makes their spaces one).
	needles, also []string
	// re matches the instruction; a group named m, when it has one, is
	// the span to report (the rest is context it needs, such as the
	// start of a sentence).
	re *regexp.Regexp
	// quoted: a match inside quotation marks or a code span is talk about
	// the words, not an instruction. A command in a code span is still a
	// command, so download-and-execute rules say false.
	quoted bool
	// unless, when it matches the matched text, makes the match talk
	// about the thing (or forbid it): "always avoid force-pushing".
	unless *regexp.Regexp
	// unlessAfter, when it matches the rest of the sentence after the
	// match, does the same: "do not tell the user it is done until CI
	// passes".
	unlessAfter *regexp.Regexp
}

// find gives the spans of s the rule matches.
func (r rule) find(s string) [][]int {
	locs := r.re.FindAllStringSubmatchIndex(s, -1)
	g := r.re.SubexpIndex("m")
	out := make([][]int, 0, len(locs))
	for _, l := range locs {
		if g > 0 && l[2*g] >= 0 {
			out = append(out, l[2*g:2*g+2])
		} else {
			out = append(out, l[:2])
		}
	}
	return out
}

// re compiles a rule's expression: case-insensitive, and \s never
// crossing a blank line.
func re(parts ...string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)` + strings.Join(parts, ""))
}

// Pieces of the expressions.
const (
	// det is an optional determiner.
	det = `(?:(?:the|all|any|your|my|our|its|these|those|every|each|this)\s+)?`
	// filler is up to n words between the parts of a phrase.
	filler2 = `(?:[\w'/-]+\s+){0,2}?`
	filler3 = `(?:[\w'/-]+\s+){0,3}?`
	filler4 = `(?:[\w'/-]+\s+){0,4}?`

	// standing makes an instruction a rule for every session: "always",
	// "from now on", "you should", "agents must".
	standing = `(?:always|from\s+now\s+on,?|going\s+forward,?|in\s+(?:all|every|each)\s+(?:future\s+)?(?:sessions?|cases?|tasks?|prs?|pull\s+requests?|commits?|repos?|repositor(?:y|ies)),?|every\s+time,?|by\s+default,?|whenever\s+(?:possible|you\s+can),?|` +
		`(?:you|agents?|the\s+agents?|assistants?|the\s+assistant|claude|copilot|codex|the\s+ai|ais|llms?|the\s+model)\s+(?:should|must|shall|can|may|need\s+to|have\s+to|(?:are|is)\s+(?:allowed|permitted|expected|supposed)\s+to)(?:\s+always)?)`

	// bypass is skipping a safeguard.
	bypass = `(?:(?:skip|bypass|disable|turn\s+off|circumvent|ignore|silence|suppress|remove|delete|comment\s+out|omit)\s+` + det + filler2 +
		`(?:code\s+reviews?|reviews?|review\s+steps?|reviewers?|approvals?|sign-?offs?|tests?|test\s+suites?|ci|checks|hooks?|pre-commit|pre-push|linters?|linting|security\s+scans?|branch\s+protections?|guardrails?|safety\s+checks|verification|confirmations?|permission\s+prompts?|signing|gates?)\b` +
		`|(?:use|pass|add|append)\s+(?:the\s+)?--no-verify\b` +
		`|(?:git\s+)?(?:commit|push)\b[^\n.;]{0,40}?--no-verify\b|commit\s+(?:with\s+)?-n\b` +
		`|force[\s-]?push(?:es|ing)?\b|(?:git\s+)?push\s+(?:\S+\s+){0,2}?(?:-f|--force(?:-with-lease)?)(?:\s|$)` +
		`|(?:push|commit|merge)\s+` + filler3 + `(?:directly\s+|straight\s+)?(?:to|into|on(?:to)?)\s+(?:origin[\s/])?(?:main|master|prod(?:uction)?|trunk|the\s+(?:default|main|release)\s+branch)\b` + without +
		`|(?:push|commit|merge|deploy|ship|release)\s+` + filler4 + `without\s+(?:a\s+|any\s+)?(?:code\s+)?(?:reviews?|approvals?|tests?|testing|ci|checks|pull\s+requests?|prs?|running\s+(?:the\s+)?tests)\b` +
		`|` + filler4 + `without\s+(?:telling|informing|notifying|alerting|asking)\s+(?:the\s+)?(?:user|human|operator|anyone|maintainers?|owner|reviewers?)\b)`

	// without is what a push to main may go without, said with it.
	without = `(?:\s+(?:[\w-]+\s+){0,2}?without\s+(?:a\s+|any\s+)?(?:code\s+)?(?:reviews?|approvals?|tests?|testing|ci|checks|pull\s+requests?|prs?)\b)?`

	// imperative is a bypass said as a command, at the start of its
	// sentence, where the safeguard is one nobody skips in passing: tests,
	// lint and hooks are ("Skip the flaky test until #12 is fixed", a
	// rollback plan's "git commit --no-verify").
	imperative = `(?:skip|bypass|disable|turn\s+off|circumvent)\s+` + det + filler2 +
		`(?:code\s+reviews?|reviews?|review\s+steps?|approvals?|sign-?offs?|security\s+scans?|branch\s+protections?|guardrails?|safety\s+checks|signing|permission\s+prompts?)\b` +
		`|(?:push|commit|merge)\s+` + filler3 + `(?:directly|straight)\s+(?:to|into|on(?:to)?)\s+(?:origin[\s/])?(?:main|master|prod(?:uction)?|trunk|the\s+(?:default|main|release)\s+branch)\b` + without +
		`|(?:push|commit|merge|deploy|ship|release)\s+` + filler4 + `without\s+(?:a\s+|any\s+)?(?:code\s+)?(?:reviews?|approvals?|pull\s+requests?|prs?)\b`

	// fetch, url and shell make a download run: curl URL | sh.
	fetch = `(?:curl|wget|fetch|aria2c|https?|iwr|irm|invoke-webrequest|invoke-restmethod)`
	url   = `(?:https?://|ftp://|\b[\w-]+(?:\.[\w-]+)+(?::\d+)?/)`
	shell = `(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+(?:\S+=\S*\s+)*)?(?:/(?:usr/)?(?:local/)?bin/)?(?:(?:ba|z|k|da|fi|c|tc|a)?sh|python[23]?|perl|ruby|node|php|iex|invoke-expression|pwsh|powershell)\b`

	// secretsObj is the environment or secrets in bulk: one token named
	// for the service it belongs to ("the token", in an Authorization
	// header) is how APIs are called, not exfiltration.
	secretsObj = `(?:all\s+(?:of\s+)?(?:the\s+|your\s+|my\s+)?(?:[\w-]+\s+)?(?:secrets|tokens|keys|credentials|passwords|env(?:ironment)?\s+variables)` +
		`|your\s+(?:[\w-]+\s+)?(?:secrets?|tokens?|api[\s_-]?keys?|credentials|passwords?|ssh\s+keys?|private\s+keys?|env(?:ironment)?(?:\s+variables)?)` +
		`|(?:the\s+)?(?:user's|users')\s+(?:[\w-]+\s+)?(?:secrets?|tokens?|keys|credentials|passwords?)` +
		`|(?:the\s+)?(?:(?:full|whole|entire)\s+)?(?:contents?\s+of\s+(?:the\s+)?)?(?:env(?:ironment)?\s+variables|environment|\.env(?:\s+file)?|ssh\s+keys?|private\s+keys?|~/\.ssh\S*|id_rsa|id_ed25519|\.npmrc|\.netrc|\.pypirc|kubeconfig|\.aws/credentials|credentials\s+file)` +
		`|(?:(?:your|the|my|our)\s+)?(?:\$\{?\w*(?:token|secret|password|api_?key)\w*\}?|\b\w+_(?:token|secret|password|api_?key)\b))`
	dest = `(?:https?://\S+|[\w-]+(?:\.[\w-]+)*\.(?:com|net|org|io|xyz|ru|cn|sh|dev|app|site|co|me|tk|top|info|biz|link|click)\b\S*|(?:my|our|this|that|the\s+following|an?\s+(?:external|remote))\s+(?:server|endpoint|url|webhook|host|address|email|inbox)|webhook\.site|pastebin\S*|requestbin\S*|ngrok\S*|\d{1,3}(?:\.\d{1,3}){3}\S*)`
)

// negation in a match makes it forbid the thing, not ask for it.
var negation = re(`(?:^|[^\w-])(?:never|not|no|don't|doesn't|won't|didn't|avoid\w*|refus\w*|instead|rather)\b|n't\b`)

// rules are the instructions the detector knows, one row each.
var rules = []rule{
	// Override of instructions.
	{category: Override, why: "to ignore its instructions", quoted: true,
		needles: []string{"ignor", "disregard", "forget", "overrid", "overrul", "discard", "abandon", "bypass", "aside", "following"},
		re: re(`\b(?:ignore|disregard|forget|override|overrule|discard|abandon|bypass|set\s+aside)\s+(?:(?:all|any|each|every|of)\s+)*(?:(?:the|your|my|its|these|those|our|this)\s+)?`,
			`(?:(?:previous|prior|above|earlier|preceding|original|initial|system|developer|safety)\s+)+(?:[\w-]+\s+){0,2}?`,
			`(?:instructions?|prompts?|directives?|guidelines|guardrails|programming|training|messages|rules)\b`,
			`|\b(?:ignore|disregard|forget|override)\s+(?:all\s+(?:of\s+)?)?(?:your|the\s+system'?s?|the\s+developer'?s?|its)\s+(?:own\s+)?(?:instructions|system\s+prompt|guidelines|guardrails|programming|rules|safety\s+(?:rules|guidelines|policies))\b`,
			`|\b(?:ignore|disregard|forget)\s+(?:all|any)\s+(?:(?:other|prior|previous)\s+)?instructions\b`,
			`|\b(?:ignore|disregard|forget)\s+(?:all\s+of\s+|everything\s+)?(?:the\s+)?(?:above|before)(?:\s+(?:and|instructions?|text|content|messages?)\b|\s*[.,;:!]|\s*$)`,
			`|\bforget\s+(?:everything|all)\s+(?:you\s+(?:know|were\s+told|have\s+been\s+told|learned)|above|before|(?:that\s+)?(?:came|was\s+said)\s+before)`,
			`|\b(?:stop|quit)\s+following\s+(?:your|the|its|all)\s+(?:own\s+)?(?:system\s+prompt|instructions|guidelines|rules|programming)\b`)},
	{category: Override, why: "to ignore its instructions", quoted: true,
		needles: []string{"instruction", "prompt", "guideline", "rules", "programming"},
		also:    []string{"outdated", "obsolete", "void", "null", "cancel", "revoked", "supersede", "replac", "invalid", "fake", "longer", "overrid", "precedence"},
		re: re(`\b(?:previous|prior|earlier|above|original|system|your)\s+(?:instructions|prompts?|system\s+prompt|guidelines|rules)\s+(?:are|is|were|have\s+been)\s+(?:now\s+)?(?:outdated|obsolete|void|null|cancel+ed|revoked|superseded|replaced|invalid|fake|no\s+longer\s+(?:valid|in\s+effect|appl(?:y|icable)))\b`,
			`|\b(?:replace|replaces|supersede|supersedes|override|overrides|take\s+precedence\s+over|takes\s+precedence\s+over)\s+(?:all\s+|any\s+)?(?:your|the|its)\s+(?:previous\s+|prior\s+|original\s+|other\s+)?(?:system\s+prompt|instructions|guidelines|programming)\b`)},
	{category: Override, why: "to take another role, free of its rules", quoted: true,
		needles: []string{"now", "longer", "pretend", "roleplay", "mode", "anything", "unrestricted", "unfiltered", "uncensored", "jailbr", "evil", "dan", "without"},
		re: re(`\byou\s+are\s+(?:now\s+|no\s+longer\s+)(?:an?\s+|the\s+|in\s+)?(?:[\w-]+\s+){0,2}?(?:unrestricted|unfiltered|uncensored|jailbroken|dan\b|developer\s+mode|god\s+mode|admin(?:istrator)?\s+mode|bound\s+by|restricted|limited\s+by|subject\s+to|required\s+to\s+(?:follow|obey)|evil)`,
			`|\bfrom\s+now\s+on,?\s+(?:you\s+(?:are|will\s+(?:act|respond|answer|ignore|obey|only)|must\s+(?:ignore|obey|act)|act|respond|answer|ignore|obey)|ignore|disregard|act\s+as|respond\s+as|answer\s+as|obey)\b`,
			`|\b(?:act|behave|respond|answer|roleplay)\s+as\s+(?:if\s+you\s+(?:are|were)\s+)?(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken|dan\b|evil|ai\s+without\s+(?:restrictions|rules|limits))`,
			`|\bpretend\s+(?:to\s+be|you\s+are|that\s+you\s+are)\s+(?:an?\s+)?(?:[\w-]+\s+){0,2}?(?:unrestricted|unfiltered|uncensored|jailbroken|dan\b|evil|without\s+(?:restrictions|rules|limits))`,
			`|\b(?:enable|enter|activate|switch\s+(?:to|into))\s+(?:dan|developer|god|jailbreak|unrestricted)\s+mode\b|\bdo\s+anything\s+now\b`)},
	{category: Override, why: "to take a new system prompt", quoted: true,
		needles: []string{"prompt", "instruction", "override", "system"},
		re: re(`\b(?:new|updated|revised|real|actual|true|hidden|secret|override|replacement)\s+(?:system\s+)?(?:prompt|instructions)\s*(?::|-\s|follows\b|below\b|are\s+as\s+follows)`,
			`|(?m:^)[ \t>#-]*system\s+prompt\s*:|\bsystem\s+(?:prompt\s+)?override\b|\b(?:begin|start)\s+(?:of\s+)?(?:new\s+)?system\s+(?:prompt|instructions|message)\b`)},
	{category: Override, why: "to read a message as if the system or the model had written it", quoted: true,
		needles: []string{"<|", "inst]", "<<sys", "<sys", "</sys", "system", "assistant", "_of_turn"},
		re: re(`<\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|start_header_id|end_header_id|eot_id|begin_of_text)\|>|\[/?INST\]|<</?SYS>>|</?(?:system|system_prompt|sys)>|<(?:start|end)_of_turn>`,
			`|(?m:^)[ \t>*#-]*[\[<]?(?:system|assistant)[\]>]?\s*:\s*(?:you\b|ignore|disregard|forget|from\s+now|always|never|do\s+not|don't|new\s+instructions|the\s+user|override|act\s+as|your\s+new)`)},

	// Download and execute.
	{category: DownloadRun, why: "to run a script downloaded from the network",
		needles: []string{"curl", "wget", "fetch", "aria2c", "http", "iwr", "irm", "invoke-", "iex"},
		also:    []string{"|", "$(", "<(", "iex", "invoke-expression"},
		re: re(`\b`+fetch+`\b[^\n|;&]*?`+url+`[^\n|;&]*\|\s*`+shell,
			`|\b(?:ba|z)?sh\s+(?:-\w+\s+)*["']?\$\(\s*(?:curl|wget)\b[^\n)]*`+url,
			`|\b(?:(?:ba|z)?sh|source)\s+<\(\s*(?:curl|wget)\b[^\n)]*`+url,
			`|\b(?:iex|invoke-expression)\s*\(?\s*\(?\s*(?:new-object\s+(?:system\.)?net\.webclient\s*\)?\s*\.\s*downloadstring|(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b)`)},
	{category: DownloadRun, why: "to run encoded commands",
		needles: []string{"base64", "powershell", "frombase64"},
		re: re(`\bbase64\s+(?:-d|--decode|-D)\b[^\n|]*\|\s*`+shell,
			`|\bfrombase64string\b[^\n]*\|\s*(?:iex|invoke-expression)\b`,
			`|\bpowershell(?:\.exe)?\s+(?:-\w+\s+)*-(?:e|ec|enc|encodedcommand)\s+[a-z0-9+/=]{20,}`)},

	// Skipping safeguards, as a standing rule.
	{category: Safeguard, why: "to skip a safeguard (review, tests, hooks, protected branches) as a rule", quoted: true,
		needles: []string{"skip", "bypass", "disabl", "turn off", "circumvent", "ignor", "silenc", "suppress", "remov", "delet", "comment out", "omit", "no-verify", "push", "commit", "merge", "deploy", "ship", "release", "without"},
		also:    []string{"always", "now on", "forward", "all", "every", "each", "default", "whenever", "should", "must", "shall", "can", "may", "need", "have to", "allowed", "permitted", "expected", "supposed"},
		re:      re(`\b` + standing + `\s+` + filler4 + bypass),
		unless:  negation},
	{category: Safeguard, why: "to skip a safeguard (review, hooks, protected branches)", quoted: true,
		needles: []string{"skip", "bypass", "disabl", "turn off", "circumvent", "push", "commit", "merge", "deploy", "ship", "release"},
		also:    []string{"review", "approv", "sign-off", "signoff", "scan", "protection", "guardrail", "safety", "signing", "permission", "directly", "straight", "without"},
		re:      re(`(?:^|[.;!?]\s+|\n)[ \t]*(?:(?:[-+>]|\d+[.)])[ \t]*)?(?P<m>` + imperative + `)`),
		unless:  negation},
	{category: Safeguard, why: "never to ask for review or approval", quoted: true,
		needles: []string{"never", "not", "don't"},
		also:    []string{"ask", "wait", "request", "seek", "open", "run"},
		re: re(`\b(?:never|do\s+not|don't)\s+(?:ever\s+)?(?:ask|wait|request|seek|open)\s+(?:for\s+|on\s+|the\s+user\s+for\s+|anyone\s+for\s+)?(?:a\s+|any\s+|the\s+)?(?:code\s+)?(?:reviews?|approvals?|permission|confirmation|sign-?offs?|pull\s+requests?|prs?|ci|checks|status\s+checks)\b`,
			`|\b(?:never|do\s+not|don't)\s+run\s+(?:the\s+)?(?:tests?|test\s+suite|ci|checks|linters?|hooks?)\s+before\s+(?:pushing|merging|committing|you\s+(?:push|merge|commit))`)},
	{category: Safeguard, why: "to keep something from the user", quoted: true,
		needles: []string{"not", "n't", "never", "hide", "conceal", "keep"},
		also:    []string{"user", "human", "operator", "developer", "maintainer", "reviewer", "owner", "anyone", "instruction", "message", "note", "comment", "prompt"},
		re: re(`\b(?:do\s+not|don't|never)\s+(?:tell|inform|notify|alert|warn|show)\s+(?:the\s+)?(?:user|human|operator|developer|maintainers?|reviewers?|owner|anyone)\b`,
			`|\b(?:do\s+not|don't|never)\s+(?:mention|reveal|disclose|repeat|acknowledge|admit)\s+(?:these|this|the|any\s+of\s+(?:these|this))\s+(?:hidden\s+)?(?:instructions?|messages?|notes?|comments?|prompts?)\b`,
			`|\b(?:hide|conceal|keep)\s+(?:this|these|it|them|that)\s+(?:[\w-]+\s+){0,2}?(?:from|secret\s+from|hidden\s+from)\s+(?:the\s+)?(?:user|human|operator|reviewers?|maintainers?|owner)\b`),
		unlessAfter: re(`\b(?:until|before|unless)\b`)},

	// Exfiltration.
	{category: Exfiltration, why: "to send secrets or the environment elsewhere", quoted: true,
		needles: []string{"send", "post", "upload", "exfiltrat", "forward", "transmit", "leak", "copy", "mail", "submit", "share", "pipe", "dump", "beacon", "ship", "print", "paste", "write", "include", "add", "put", "echo", "publish"},
		also:    []string{"env", "secret", "token", "key", "credential", "password", "ssh", "id_rsa", "id_ed25519", "npmrc", "netrc", "pypirc", "kubeconfig", "aws"},
		re: re(`\b(?:send|post|upload|exfiltrate|forward|transmit|leak|copy|e?mail|submit|share|pipe|dump|beacon|ship)\s+`, secretsObj, `[^\n.]{0,60}?\b(?:to|at|into|via|on)\s+`, dest,
			`|\b(?:print|paste|write|include|add|put|post|copy|dump|echo|publish|share)\s+`, secretsObj, `[^\n.]{0,60}?\b(?:in|into|to|on)\s+(?:the\s+|a\s+)?(?:pr|pull\s+request|issue|commit\s+message|gist|public\s+\w+|discussion|chat|slack|channel)\b`)},
	{category: Exfiltration, why: "to send secrets or the environment elsewhere",
		needles: []string{"env", "set", "export", "cat ", "curl"},
		also:    []string{"|", "-d", "--data", "-f", "--form", "-t", "--upload"},
		re: re(`\b(?:env|printenv|set|export\s+-p)\s*\|\s*(?:curl|wget|nc|ncat|netcat|socat)\b`,
			`|\bcat\s+(?:\S*\.env\b|~/\.ssh/\S+|\S*id_rsa\S*|\S*credentials\S*|\S*\.npmrc|\S*\.netrc|\S*\.pypirc)[^\n|]*\|\s*(?:curl|wget|nc|ncat|netcat|socat|base64)\b`,
			`|\bcurl\b[^\n]*?\s(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file)\s*["']?(?:[\w.-]+=)?(?:@(?:\S*\.env\b|~/\.ssh\S*|\S*id_rsa|\S*\.npmrc|\S*\.netrc)|[^\s"']*\$\(\s*(?:env|printenv|cat\s)|[^\s"']*\$\{?\w*(?:token|secret|password|api_?key)\w*)`)},
}
