(define (domain heavy-costumed)
  (:requirements :strips)
  (:predicates
    (thicker ?book1 ?book2)
    (in-crate ?book)
    (on-table ?book)
    (top-book ?book)
    (crate-empty)
  )
  (:action lay-first
    :parameters (?book)
    :precondition (and (crate-empty))
    :effect (and (in-crate ?book) (top-book ?book) (not (crate-empty)) (not (on-table ?book))))
  (:action lay-onto
    :parameters (?lower ?upper)
    :precondition (and (in-crate ?lower) (top-book ?lower) (thicker ?lower ?upper) (on-table ?upper))
    :effect (and (in-crate ?upper) (top-book ?upper) (not (top-book ?lower)) (not (on-table ?upper))))
)
