package shop

// Region is a state, territory or province an address can name: its postal
// code (stored on addresses and tax rates), its name, and the other ways
// people write it. Every spelling is compared as RegionKey has it.
type Region struct {
	Code    string
	Name    string
	Aliases []string
}

// Regions are the states and provinces of the countries whose addresses
// must name one we know, by country (as the checkout names it). Aliases are
// the traditional abbreviations (the U.S. Government Publishing Office's
// and Canada Post's older ones) and French names, each naming one place
// only; a spelling that could mean two places is left out on purpose.
var Regions = map[string][]Region{
	"United States": {
		{"AL", "Alabama", []string{"Ala"}},
		{"AK", "Alaska", []string{"Alas"}},
		{"AZ", "Arizona", []string{"Ariz"}},
		{"AR", "Arkansas", []string{"Ark"}},
		{"CA", "California", []string{"Calif", "Cal", "Cali"}},
		{"CO", "Colorado", []string{"Colo", "Col"}},
		{"CT", "Connecticut", []string{"Conn"}},
		{"DE", "Delaware", []string{"Del"}},
		{"DC", "District of Columbia", []string{"Washington DC", "Washington D.C."}},
		{"FL", "Florida", []string{"Fla", "Flor"}},
		{"GA", "Georgia", nil},
		{"HI", "Hawaii", []string{"Hawai'i"}},
		{"ID", "Idaho", []string{"Ida", "Ido"}},
		{"IL", "Illinois", []string{"Ill", "Ills"}},
		{"IN", "Indiana", []string{"Ind"}},
		{"IA", "Iowa", nil},
		{"KS", "Kansas", []string{"Kan", "Kans"}},
		{"KY", "Kentucky", []string{"Ken", "Kent"}},
		{"LA", "Louisiana", nil},
		{"ME", "Maine", nil},
		{"MD", "Maryland", nil},
		{"MA", "Massachusetts", []string{"Mass"}},
		{"MI", "Michigan", []string{"Mich"}},
		{"MN", "Minnesota", []string{"Minn"}},
		{"MS", "Mississippi", []string{"Miss"}},
		{"MO", "Missouri", nil},
		{"MT", "Montana", []string{"Mont"}},
		{"NE", "Nebraska", []string{"Neb", "Nebr"}},
		{"NV", "Nevada", []string{"Nev"}},
		{"NH", "New Hampshire", []string{"N.H."}},
		{"NJ", "New Jersey", []string{"N.J."}},
		{"NM", "New Mexico", []string{"N.M.", "N. Mex"}},
		{"NY", "New York", []string{"N.Y."}},
		{"NC", "North Carolina", []string{"N.C.", "N. Car"}},
		{"ND", "North Dakota", []string{"N.D.", "N. Dak"}},
		{"OH", "Ohio", nil},
		{"OK", "Oklahoma", []string{"Okla"}},
		{"OR", "Oregon", []string{"Ore", "Oreg"}},
		{"PA", "Pennsylvania", []string{"Penn", "Penna"}},
		{"RI", "Rhode Island", []string{"R.I."}},
		{"SC", "South Carolina", []string{"S.C.", "S. Car"}},
		{"SD", "South Dakota", []string{"S.D.", "S. Dak"}},
		{"TN", "Tennessee", []string{"Tenn"}},
		{"TX", "Texas", []string{"Tex"}},
		{"UT", "Utah", nil},
		{"VT", "Vermont", nil},
		{"VA", "Virginia", nil},
		{"WA", "Washington", []string{"Wash"}},
		{"WV", "West Virginia", []string{"W. Va", "W. Virginia"}},
		{"WI", "Wisconsin", []string{"Wis", "Wisc"}},
		{"WY", "Wyoming", []string{"Wyo"}},
		{"AS", "American Samoa", nil},
		{"GU", "Guam", nil},
		{"MP", "Northern Mariana Islands", nil},
		{"PR", "Puerto Rico", nil},
		{"VI", "U.S. Virgin Islands", []string{"Virgin Islands", "US Virgin Islands"}},
		{"AA", "Armed Forces Americas", nil},
		{"AE", "Armed Forces Europe", nil},
		{"AP", "Armed Forces Pacific", nil},
	},
	"Canada": {
		{"AB", "Alberta", []string{"Alta"}},
		{"BC", "British Columbia", []string{"Colombie-Britannique"}},
		{"MB", "Manitoba", []string{"Man"}},
		{"NB", "New Brunswick", []string{"Nouveau-Brunswick"}},
		{"NL", "Newfoundland and Labrador", []string{"Newfoundland & Labrador", "Newfoundland", "Nfld", "NF", "Terre-Neuve-et-Labrador"}},
		{"NS", "Nova Scotia", []string{"Nouvelle-Écosse"}},
		{"NT", "Northwest Territories", []string{"N.W.T.", "Territoires du Nord-Ouest"}},
		{"NU", "Nunavut", []string{"Nvt"}},
		{"ON", "Ontario", []string{"Ont"}},
		{"PE", "Prince Edward Island", []string{"P.E.I.", "Île-du-Prince-Édouard"}},
		{"QC", "Quebec", []string{"Québec", "Que", "Qué", "PQ"}},
		{"SK", "Saskatchewan", []string{"Sask"}},
		{"YT", "Yukon", []string{"Yukon Territory", "Yuk", "YK"}},
	},
}
