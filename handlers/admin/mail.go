package admin

import (
	"context"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// MailQueue is what the mail page needs of the outbox.
type MailQueue interface {
	UndeliveredMail(ctx context.Context) ([]shop.QueuedMail, error)
	RetryMail(ctx context.Context, id int64) (bool, error)
}

// mailPages serve the mail that has not reached the mail server (admins
// only).
type mailPages struct {
	*web.Pages
	store MailQueue
	audit Recorder
}

const mailPath = "/admin/mail"

func (a *mailPages) adminMail(c *fiber.Ctx) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	list, err := a.store.UndeliveredMail(c.UserContext())
	if err != nil {
		return err
	}
	p := pages.AdminMailPage{Nav: adminNav(c, backoffice.AreaMail)}
	for _, m := range list {
		row := pages.MailRow{ID: m.ID, To: m.To, Subject: m.Subject, Body: m.Body, Failed: m.State == shop.MailFailed,
			Attempts: m.Attempts, LastError: m.LastError, Created: m.CreatedAt, Next: m.NextAttemptAt}
		if m.Secret {
			// A sign-in, reset or confirmation link would let whoever
			// reads the page act as the customer.
			row.Body, row.Hidden = "", true
		}
		p.Mails = append(p.Mails, row)
	}
	return web.Render(c, fiber.StatusOK, pages.AdminMail(a.Frame(c, "Mail · Back office"), p))
}

// adminRetryMail makes a mail due now, a failed one waiting again. A mail
// sent meanwhile has nothing to retry: the list shows it gone.
func (a *mailPages) adminRetryMail(c *fiber.Ctx) error {
	id, err := strconv.ParseInt(c.Params("id"), 10, 64)
	if a.store == nil || err != nil {
		return fiber.ErrNotFound
	}
	retried, err := a.store.RetryMail(c.UserContext(), id)
	if err != nil {
		return err
	}
	if retried {
		a.audit.Record(c.UserContext(), staffEmail(c), "mail.retry", strconv.FormatInt(id, 10), nil, nil)
	}
	return c.Redirect(mailPath, fiber.StatusSeeOther)
}
