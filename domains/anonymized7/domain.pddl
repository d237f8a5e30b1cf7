(define (domain anonymized7)
  (:requirements :strips)
  (:predicates
    (predicate1 ?var1 ?var2)
    (predicate2 ?var3)
    (predicate3 ?var3)
    (predicate4 ?var3)
    (predicate5)
  )
  (:action action1
    :parameters (?var3)
    :precondition (and (predicate5))
    :effect (and (predicate2 ?var3) (predicate4 ?var3) (not (predicate5)) (not (predicate3 ?var3))))
  (:action action2
    :parameters (?var4 ?var5)
    :precondition (and (predicate2 ?var4) (predicate4 ?var4) (predicate1 ?var4 ?var5) (predicate3 ?var5))
    :effect (and (predicate2 ?var5) (predicate4 ?var5) (not (predicate4 ?var4)) (not (predicate3 ?var5))))
)
