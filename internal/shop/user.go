package shop

import "context"

// CurrentUser is whoever the session belongs to: a signed-in account or a
// guest. A nil *CurrentUser means a signed-out visitor.
type CurrentUser struct {
	ID          string
	Email       string
	DisplayName string
	IsGuest     bool
}

// Initial is the letter shown in the avatar and the account menu.
func (u *CurrentUser) Initial() string {
	for _, s := range []string{u.DisplayName, u.Email} {
		for _, r := range s {
			return string(r)
		}
	}
	return "?"
}

type userContextKey struct{}

// NewContextWithUser returns a copy of ctx carrying u.
func NewContextWithUser(ctx context.Context, u *CurrentUser) context.Context {
	return context.WithValue(ctx, userContextKey{}, u)
}

// UserFromContext returns the current user, or nil for a signed-out visitor.
func UserFromContext(ctx context.Context) *CurrentUser {
	u, _ := ctx.Value(userContextKey{}).(*CurrentUser)
	return u
}
