package components_test

import (
	"reflect"
	"testing"

	"github.com/nocturne/storefront/views/components"
)

// The card memory uses a whole Card as its key, so two cards that render
// differently must compare unequal. That holds only while Card is made of
// plain values: a pointer would be compared by address (a changed product
// behind the same pointer would serve stale HTML), and an interface could
// hold either. Slices and maps would not compile as a key at all, but a
// test says why rather than a compiler error.
func TestCard_HoldsPlainValuesOnly(t *testing.T) {
	var walk func(path string, ty reflect.Type)
	walk = func(path string, ty reflect.Type) {
		switch ty.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
			t.Errorf("%s is a %s: the card memory's key must hold plain values only", path, ty.Kind())
		case reflect.Struct:
			for i := range ty.NumField() {
				f := ty.Field(i)
				walk(path+"."+f.Name, f.Type)
			}
		case reflect.Array:
			walk(path+"[]", ty.Elem())
		}
	}
	walk("Card", reflect.TypeFor[components.Card]())
}
