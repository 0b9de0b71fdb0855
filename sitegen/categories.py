"""Human names of arXiv subject codes, for subject pages and headings."""

import difflib
import re

ARXIV_CATEGORIES = {  # arXiv's category taxonomy (arxiv.org/category_taxonomy)
    "astro-ph": "Astrophysics",
    "astro-ph.CO": "Cosmology and Nongalactic Astrophysics",
    "astro-ph.EP": "Earth and Planetary Astrophysics",
    "astro-ph.GA": "Astrophysics of Galaxies",
    "astro-ph.HE": "High Energy Astrophysical Phenomena",
    "astro-ph.IM": "Instrumentation and Methods for Astrophysics",
    "astro-ph.SR": "Solar and Stellar Astrophysics",
    "cond-mat": "Condensed Matter",
    "cond-mat.dis-nn": "Disordered Systems and Neural Networks",
    "cond-mat.mes-hall": "Mesoscale and Nanoscale Physics",
    "cond-mat.mtrl-sci": "Materials Science",
    "cond-mat.other": "Other Condensed Matter",
    "cond-mat.quant-gas": "Quantum Gases",
    "cond-mat.soft": "Soft Condensed Matter",
    "cond-mat.stat-mech": "Statistical Mechanics",
    "cond-mat.str-el": "Strongly Correlated Electrons",
    "cond-mat.supr-con": "Superconductivity",
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
    "econ.GN": "General Economics",
    "econ.TH": "Theoretical Economics",
    "eess.AS": "Audio and Speech Processing",
    "eess.IV": "Image and Video Processing",
    "eess.SP": "Signal Processing",
    "eess.SY": "Systems and Control",
    "gr-qc": "General Relativity and Quantum Cosmology",
    "hep-ex": "High Energy Physics - Experiment",
    "hep-lat": "High Energy Physics - Lattice",
    "hep-ph": "High Energy Physics - Phenomenology",
    "hep-th": "High Energy Physics - Theory",
    "math-ph": "Mathematical Physics",
    "math.AC": "Commutative Algebra",
    "math.AG": "Algebraic Geometry",
    "math.AP": "Analysis of PDEs",
    "math.AT": "Algebraic Topology",
    "math.CA": "Classical Analysis and ODEs",
    "math.CO": "Combinatorics",
    "math.CT": "Category Theory",
    "math.CV": "Complex Variables",
    "math.DG": "Differential Geometry",
    "math.DS": "Dynamical Systems",
    "math.FA": "Functional Analysis",
    "math.GM": "General Mathematics",
    "math.GN": "General Topology",
    "math.GR": "Group Theory",
    "math.GT": "Geometric Topology",
    "math.HO": "History and Overview",
    "math.IT": "Information Theory",
    "math.KT": "K-Theory and Homology",
    "math.LO": "Logic",
    "math.MG": "Metric Geometry",
    "math.MP": "Mathematical Physics",
    "math.NA": "Numerical Analysis",
    "math.NT": "Number Theory",
    "math.OA": "Operator Algebras",
    "math.OC": "Optimization and Control",
    "math.PR": "Probability",
    "math.QA": "Quantum Algebra",
    "math.RA": "Rings and Algebras",
    "math.RT": "Representation Theory",
    "math.SG": "Symplectic Geometry",
    "math.SP": "Spectral Theory",
    "math.ST": "Statistics Theory",
    "nlin.AO": "Adaptation and Self-Organizing Systems",
    "nlin.CD": "Chaotic Dynamics",
    "nlin.CG": "Cellular Automata and Lattice Gases",
    "nlin.PS": "Pattern Formation and Solitons",
    "nlin.SI": "Exactly Solvable and Integrable Systems",
    "nucl-ex": "Nuclear Experiment",
    "nucl-th": "Nuclear Theory",
    "physics.acc-ph": "Accelerator Physics",
    "physics.ao-ph": "Atmospheric and Oceanic Physics",
    "physics.app-ph": "Applied Physics",
    "physics.atm-clus": "Atomic and Molecular Clusters",
    "physics.atom-ph": "Atomic Physics",
    "physics.bio-ph": "Biological Physics",
    "physics.chem-ph": "Chemical Physics",
    "physics.class-ph": "Classical Physics",
    "physics.comp-ph": "Computational Physics",
    "physics.data-an": "Data Analysis, Statistics and Probability",
    "physics.ed-ph": "Physics Education",
    "physics.flu-dyn": "Fluid Dynamics",
    "physics.gen-ph": "General Physics",
    "physics.geo-ph": "Geophysics",
    "physics.hist-ph": "History and Philosophy of Physics",
    "physics.ins-det": "Instrumentation and Detectors",
    "physics.med-ph": "Medical Physics",
    "physics.optics": "Optics",
    "physics.plasm-ph": "Plasma Physics",
    "physics.pop-ph": "Popular Physics",
    "physics.soc-ph": "Physics and Society",
    "physics.space-ph": "Space Physics",
    "q-bio.BM": "Biomolecules",
    "q-bio.CB": "Cell Behavior",
    "q-bio.GN": "Genomics",
    "q-bio.MN": "Molecular Networks",
    "q-bio.NC": "Neurons and Cognition",
    "q-bio.OT": "Other Quantitative Biology",
    "q-bio.PE": "Populations and Evolution",
    "q-bio.QM": "Quantitative Methods",
    "q-bio.SC": "Subcellular Processes",
    "q-bio.TO": "Tissues and Organs",
    "q-fin.CP": "Computational Finance",
    "q-fin.EC": "Economics",
    "q-fin.GN": "General Finance",
    "q-fin.MF": "Mathematical Finance",
    "q-fin.PM": "Portfolio Management",
    "q-fin.PR": "Pricing of Securities",
    "q-fin.RM": "Risk Management",
    "q-fin.ST": "Statistical Finance",
    "q-fin.TR": "Trading and Market Microstructure",
    "quant-ph": "Quantum Physics",
    "stat.AP": "Statistics - Applications",
    "stat.CO": "Statistics - Computation",
    "stat.ME": "Statistics - Methodology",
    "stat.ML": "Machine Learning (Statistics)",
    "stat.OT": "Other Statistics",
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


# arXiv's names of its archives, which NASA ADS writes before a class's name when it gives the class as a keyword
_ARCHIVE_NAMES = {
    "astro-ph": "Astrophysics",
    "cond-mat": "Condensed Matter",
    "cs": "Computer Science",
    "econ": "Economics",
    "eess": "Electrical Engineering and Systems Science",
    "math": "Mathematics",
    "nlin": "Nonlinear Sciences",
    "physics": "Physics",
    "q-bio": "Quantitative Biology",
    "q-fin": "Quantitative Finance",
    "stat": "Statistics",
}


def _named_categories() -> dict[str, str]:
    """The names ADS writes arXiv's classes by, as keywords (case ignored) -> the class: 'Astrophysics - Astrophysics
    of Galaxies' (astro-ph.GA), 'Statistics - Machine Learning' (stat.ML), and an archive's that is a class itself by
    its name: 'General Relativity and Quantum Cosmology' (gr-qc), 'High Energy Physics - Theory' (hep-th)."""
    named: dict[str, str] = {}
    for code, name in ARXIV_CATEGORIES.items():
        archive = _ARCHIVE_NAMES.get(code.split(".")[0]) if "." in code else None
        if archive is None:
            named.setdefault(name.casefold(), code)
            continue
        name = re.sub(r" \(.*\)$", "", name).removeprefix(f"{archive} - ")  # 'Machine Learning (Statistics)'
        named.setdefault(f"{archive} - {name}".casefold(), code)
    return named


_NAMED_CATEGORIES = _named_categories()


def category_named(keyword: str) -> str | None:
    """The arXiv class a keyword names as NASA ADS writes it ('Astrophysics - High Energy Astrophysical Phenomena':
    astro-ph.HE), or None for any other keyword."""
    return _NAMED_CATEGORIES.get(" ".join(keyword.split()).casefold())


def is_arxiv_category(code: str) -> bool:
    """An arXiv subject class ('cs.LG', 'hep-th', 'math.AG', 'cond-mat.mes-hall'), not a free keyword
    ('Machine Learning', 'RNA-seq', 'Computer Science - Machine Learning')."""
    return bool(_ARXIV_CLASS.fullmatch(code.strip()))


def category_mistake(code: str) -> str | None:
    """What is wrong with an arXiv category that chooses records (`sitegen fetch --category`, profile.yaml's
    `arxiv: categories`), or None. arXiv writes each code one way, so 'cs.lg' or 'cs.LF' matches no record it gives;
    a well-formed code that is not in sitegen's list and like none of it may be newer than the list: it passes."""
    if code in ARXIV_CATEGORIES or re.fullmatch(f"(?:{_ARCHIVES_ALONE})", code):
        return None
    same_but_case = [known for known in ARXIV_CATEGORIES if known.lower() == code.lower()]
    close = same_but_case or difflib.get_close_matches(code, ARXIV_CATEGORIES, n=1, cutoff=0.75)
    if not close and is_arxiv_category(code):
        return None
    meant = f" (did you mean {close[0]}?)" if close else ""
    return f"'{code}' is not an arXiv category{meant}: no record from arXiv would match it (arXiv's own list: https://arxiv.org/category_taxonomy)"
