; Mixed case everywhere and comments in every corner.
(DEFINE (DOMAIN Switches) ; the name is case-insensitive
  (:REQUIREMENTS :STRIPS) ; nothing else needed
  ;; a comment between sections
  (:Predicates (On ?S) ;inline comment without a space
               (Off ?S))
  (:Action Switch-On
    :Parameters (?S) ; parameters
    :Precondition (And (Off ?S)) ; ) a parenthesis inside a comment is not code (
    :Effect (And (On ?S) (NOT (Off ?S))))
; a comment before the last parenthesis
)
; a comment after the end
