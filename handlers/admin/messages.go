package admin

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/mail"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// messagePages serve the contact messages and the replies to them.
type messagePages struct {
	*web.Pages
	inbox  shop.InboxStore
	mailer mail.Mailer
	audit  Recorder
}

func (a *messagePages) adminMessages(c *fiber.Ctx) error {
	only := c.Query("show") == "unhandled"
	page := pageParam(c)
	msgs, total, err := a.inbox.Inbox(c.UserContext(), only, page)
	if err != nil {
		return err
	}
	p := pages.AdminMessagesPage{Nav: adminNav(c, backoffice.AreaMessages), Messages: msgs, Total: total, UnhandledOnly: only}
	p.Pagination = web.Paginate(page, lastPage(total, shop.InboxPageSize), func(n int) string {
		v := url.Values{}
		if only {
			v.Set("show", "unhandled")
		}
		if n > 1 {
			v.Set("page", strconv.Itoa(n))
		}
		return web.WithQuery("/admin/messages", v.Encode())
	})
	return web.Render(c, fiber.StatusOK, pages.AdminMessages(a.Frame(c, "Messages · Back office"), p))
}

func (a *messagePages) loadMessage(c *fiber.Ctx) (*shop.ContactMessage, error) {
	id, err := strconv.ParseInt(c.Params("id"), 10, 64)
	if err != nil {
		return nil, fiber.ErrNotFound
	}
	m, err := a.inbox.ContactMessage(c.UserContext(), id)
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return nil, fiber.ErrNotFound
	}
	return m, err
}

func (a *messagePages) adminMessage(c *fiber.Ctx) error {
	m, err := a.loadMessage(c)
	if err != nil {
		return err
	}
	p := pages.AdminMessagePage{Nav: adminNav(c, backoffice.AreaMessages), Message: m}
	return web.Render(c, fiber.StatusOK, pages.AdminMessage(a.Frame(c, "Message · Back office"), p))
}

func (a *messagePages) adminMarkHandled(c *fiber.Ctx) error {
	m, err := a.loadMessage(c)
	if err != nil {
		return err
	}
	changed, err := a.inbox.MarkHandled(c.UserContext(), m.ID, staffEmail(c), a.Now().UTC())
	if err != nil {
		return err
	}
	if !changed {
		return a.RedirectWithFlash(c, fmt.Sprintf("/admin/messages/%d", m.ID), "This message was handled already.")
	}
	a.audit.Record(c.UserContext(), staffEmail(c), "message.handled", fmt.Sprintf("message %d", m.ID), "unhandled", "handled")
	return a.RedirectWithFlash(c, fmt.Sprintf("/admin/messages/%d", m.ID), "Marked as handled.")
}

func (a *messagePages) adminReply(c *fiber.Ctx) error {
	m, err := a.loadMessage(c)
	if err != nil {
		return err
	}
	reply := strings.TrimSpace(strings.ReplaceAll(web.FormValue(c, "reply"), "\r\n", "\n"))
	errs := shop.FieldErrors{}
	switch {
	case reply == "":
		errs["reply"] = "Write a reply."
	case len(reply) > 5000:
		errs["reply"] = "Reply is too long (at most 5000 characters)."
	case !shop.ValidEmail(m.Email):
		// Kept before the form checked addresses as the mailer does.
		errs["reply"] = "This message's address (" + m.Email + ") can't receive mail, so no reply can be sent."
	}
	if len(errs) > 0 {
		p := pages.AdminMessagePage{Nav: adminNav(c, backoffice.AreaMessages), Message: m, Reply: reply, Errors: errs}
		return web.Render(c, fiber.StatusUnprocessableEntity, pages.AdminMessage(a.Frame(c, "Message · Back office"), p))
	}
	body := reply + "\n\n-- \n" + a.Config.ShopName + " customer care\n\n> " + strings.ReplaceAll(m.Message, "\n", "\n> ") + "\n"
	if err := a.mailer.Send(c.UserContext(), shop.Email{To: m.Email, Subject: "Re: " + m.Subject, Body: body}); err != nil {
		return fmt.Errorf("reply to message %d: %w", m.ID, err)
	}
	ctx := c.UserContext()
	a.audit.Record(ctx, staffEmail(c), "message.reply", fmt.Sprintf("message %d", m.ID), "", reply)
	if ok, err := a.inbox.MarkHandled(ctx, m.ID, staffEmail(c), a.Now().UTC()); err != nil {
		return err
	} else if ok {
		a.audit.Record(ctx, staffEmail(c), "message.handled", fmt.Sprintf("message %d", m.ID), "unhandled", "handled")
	}
	return a.RedirectWithFlash(c, fmt.Sprintf("/admin/messages/%d", m.ID), "Reply sent to "+m.Email+".")
}
