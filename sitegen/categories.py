"""Human names of arXiv subject codes, for subject pages and headings."""

import re

ARXIV_CATEGORIES = {
    "astro-ph": "Astrophysics",
    "cond-mat": "Condensed Matter",
    "cs.AI": "Artificial Intelligence",
    "cs.AR": "Hardware Architecture",
    "cs.CC": "Computational Complexity",
    "cs.CE": "Computational Engineering, Finance, and Science",
    "cs.CG": "Computational Geometry",
    "cs.CL": "Computation and Language",
    "cs.CR": "Cryptography and Security",
    "cs.CV": "Computer Vision and Pattern Recognition",
    "cs.CY": "Computers and Society",
    "cs.DB": "Databases",
    "cs.DC": "Distributed, Parallel, and Cluster Computing",
    "cs.DL": "Digital Libraries",
    "cs.DM": "Discrete Mathematics",
    "cs.DS": "Data Structures and Algorithms",
    "cs.ET": "Emerging Technologies",
    "cs.FL": "Formal Languages and Automata Theory",
    "cs.GL": "General Literature",
    "cs.GR": "Graphics",
    "cs.GT": "Computer Science and Game Theory",
    "cs.HC": "Human-Computer Interaction",
    "cs.IR": "Information Retrieval",
    "cs.IT": "Information Theory",
    "cs.LG": "Machine Learning",
    "cs.LO": "Logic in Computer Science",
    "cs.MA": "Multiagent Systems",
    "cs.MM": "Multimedia",
    "cs.MS": "Mathematical Software",
    "cs.NA": "Numerical Analysis",
    "cs.NE": "Neural and Evolutionary Computing",
    "cs.NI": "Networking and Internet Architecture",
    "cs.OH": "Other Computer Science",
    "cs.OS": "Operating Systems",
    "cs.PF": "Performance",
    "cs.PL": "Programming Languages",
    "cs.RO": "Robotics",
    "cs.SC": "Symbolic Computation",
    "cs.SD": "Sound",
    "cs.SE": "Software Engineering",
    "cs.SI": "Social and Information Networks",
    "cs.SY": "Systems and Control",
    "econ.EM": "Econometrics",
    "eess.AS": "Audio and Speech Processing",
    "eess.IV": "Image and Video Processing",
    "eess.SP": "Signal Processing",
    "eess.SY": "Systems and Control",
    "gr-qc": "General Relativity and Quantum Cosmology",
    "hep-ex": "High Energy Physics - Experiment",
    "hep-lat": "High Energy Physics - Lattice",
    "hep-ph": "High Energy Physics - Phenomenology",
    "hep-th": "High Energy Physics - Theory",
    "math.CO": "Combinatorics",
    "math.IT": "Information Theory",
    "math.NA": "Numerical Analysis",
    "math.OC": "Optimization and Control",
    "math.PR": "Probability",
    "math.ST": "Statistics Theory",
    "nucl-th": "Nuclear Theory",
    "physics.comp-ph": "Computational Physics",
    "q-bio.NC": "Neurons and Cognition",
    "quant-ph": "Quantum Physics",
    "stat.AP": "Statistics - Applications",
    "stat.CO": "Statistics - Computation",
    "stat.ME": "Statistics - Methodology",
    "stat.ML": "Machine Learning (Statistics)",
    "stat.TH": "Statistics Theory",
}


def subject_name(code: str) -> str:
    return ARXIV_CATEGORIES.get(code, code)


# arXiv's archives: those whose papers always carry a subject class ('cs.LG', 'math.AG', 'cond-mat.str-el'), and
# those that are a class themselves ('hep-th'; astro-ph and cond-mat were, before their classes began in 2009;
# the old archives merged into others keep their ids: 'alg-geom/9701001')
_ARCHIVES_WITH_CLASSES = "cs|math|stat|q-bio|q-fin|eess|econ|physics|nlin|astro-ph|cond-mat"
_ARCHIVES_ALONE = (
    "astro-ph|cond-mat|gr-qc|hep-ex|hep-lat|hep-ph|hep-th|math-ph|nucl-ex|nucl-th|quant-ph|acc-phys|adap-org|alg-geom|ao-sci|atom-ph"
    "|bayes-an|chao-dyn|chem-ph|cmp-lg|comp-gas|dg-ga|funct-an|mtrl-th|patt-sol|plasm-ph|q-alg|solv-int|supr-con"
)
_ARXIV_CLASS = re.compile(rf"(?:{_ARCHIVES_WITH_CLASSES})\.(?:[A-Z]{{2}}|[a-z]+(?:-[a-z]+)?)|(?:{_ARCHIVES_ALONE})")


def is_arxiv_category(code: str) -> bool:
    """An arXiv subject class ('cs.LG', 'hep-th', 'math.AG', 'cond-mat.mes-hall'), not a free keyword
    ('Machine Learning', 'RNA-seq', 'Computer Science - Machine Learning')."""
    return bool(_ARXIV_CLASS.fullmatch(code.strip()))
