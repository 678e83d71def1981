package catalog

import "context"

// ForgetWord drops what the Service remembers of a search word: its key
// and, with hits, the hits kept under that key. Benchmarks use it to
// measure a word's first search.
func (s *Service) ForgetWord(word string, hits bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if key, ok := s.keys[word]; ok && hits {
		if e := s.words[key]; e != nil {
			s.wordHits -= len(e.hits)
			delete(s.words, key)
		}
	}
	delete(s.keys, word)
}

// SyncImages runs only the photo step of an import, as the end of a long
// import does while other instances serve.
func (s *Service) SyncImages(ctx context.Context, parsed *Parsed) error {
	return s.syncImages(ctx, parsed)
}
