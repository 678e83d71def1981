package auth

import (
	"strings"

	"github.com/trustelem/zxcvbn"
)

// Common reports whether a password is one of the commonly used passwords,
// or so close to one (or to the shopper's own name or e-mail) that it is
// guessed at once. It uses zxcvbn's password frequency list (about 30,000
// of the most used passwords from leaked sets) and its matching of common
// substitutions ("p@ssw0rd"), reversals, keyboard walks, repeats and
// sequences: a password that is a single such match, or whose guess count
// is tiny, is refused.
func Common(password string, userInputs ...string) bool {
	var inputs []string
	for _, in := range userInputs {
		in = strings.ToLower(strings.TrimSpace(in))
		if in == "" {
			continue
		}
		inputs = append(inputs, in)
		if local, _, ok := strings.Cut(in, "@"); ok {
			inputs = append(inputs, local)
		}
		inputs = append(inputs, strings.Fields(in)...)
	}
	r := zxcvbn.PasswordStrength(password, inputs)
	if r.Score == 0 {
		return true
	}
	if len(r.Sequence) == 1 {
		m := r.Sequence[0]
		return m.Pattern == "dictionary" && (m.DictionaryName == "passwords" || m.DictionaryName == "user_inputs")
	}
	return false
}
