-- +goose Up
-- The carriers a parcel ships with and their tracking pages, which staff
-- edit in the back office (/admin/carriers). An order keeps the carrier's
-- name, so the name is unique and never changes; the template may, and
-- every order's tracking link follows it. {tracking} marks where the
-- tracking number goes.
CREATE TABLE carriers (
    id           TEXT    PRIMARY KEY,
    name         TEXT    NOT NULL UNIQUE CHECK (name <> ''),
    url_template TEXT    NOT NULL CHECK (url_template LIKE 'https://%{tracking}%'),
    position     INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

-- The carriers the ship form offered before this table, with each one's
-- public tracking page.
INSERT INTO carriers (id, name, url_template, position) VALUES
    ('ups',         'UPS',         'https://www.ups.com/track?tracknum={tracking}', 1),
    ('fedex',       'FedEx',       'https://www.fedex.com/fedextrack/?trknbr={tracking}', 2),
    ('usps',        'USPS',        'https://tools.usps.com/go/TrackConfirmAction?tLabels={tracking}', 3),
    ('dhl',         'DHL',         'https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id={tracking}', 4),
    ('royal-mail',  'Royal Mail',  'https://www.royalmail.com/track-your-item#/tracking-results/{tracking}', 5),
    ('canada-post', 'Canada Post', 'https://www.canadapost-postescanada.ca/track-reperage/en#/search?searchFor={tracking}', 6);

-- +goose Down
DROP TABLE carriers;
